import { Actor } from '@crawlhub/contracts';

/** POST /collections/<p>/delete?name=X: every type of the collection X removed at once. */
export class DeleteCollectionCommand {
  constructor(readonly project: number, readonly name: string, readonly actor: Actor) {}
}
