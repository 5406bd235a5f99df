import { Actor } from '@crawlhub/contracts';

/** POST activity/<project>: one JSON object or JSON lines of messages. */
export class PostActivityCommand {
  constructor(readonly project: number, readonly body: AsyncIterable<Buffer>, readonly actor: Actor) {}
}
