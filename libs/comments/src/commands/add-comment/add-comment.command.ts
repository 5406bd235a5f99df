import { Actor } from '@crawlhub/contracts';
import { CommentTarget } from '../../domain/comment';

/** POST /comments/<p>/<s>/<j>/<item_no>[/<field>] with `text`: a new comment on the target. */
export class AddCommentCommand {
  constructor(readonly target: CommentTarget, readonly text: string, readonly actor: Actor) {}
}
