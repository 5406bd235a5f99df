import { Actor } from '@crawlhub/contracts';

/** PUT /comments/<id> with `text`: the comment's text replaced (the controller checked project and author). */
export class EditCommentCommand {
  constructor(readonly project: number, readonly id: number, readonly text: string, readonly actor: Actor) {}
}
