import { Actor } from '@crawlhub/contracts';

/** DELETE /comments/<id>: the comment removed for good (the controller checked project and author). */
export class DeleteCommentCommand {
  constructor(readonly project: number, readonly id: number, readonly actor: Actor) {}
}
