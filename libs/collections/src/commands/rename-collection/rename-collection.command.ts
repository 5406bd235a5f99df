import { Actor } from '@crawlhub/contracts';

/** POST /collections/<p>/rename?name=X&new_name=Y: every type of X moved to Y. */
export class RenameCollectionCommand {
  constructor(readonly project: number, readonly name: string, readonly newName: string, readonly actor: Actor) {}
}
