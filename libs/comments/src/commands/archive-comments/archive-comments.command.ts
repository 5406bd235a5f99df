import { Actor } from '@crawlhub/contracts';
import { CommentTarget } from '../../domain/comment';

/** DELETE /comments/<p>/<s>/<j>/<item_no>[/<field>]: the target's active comments archived. */
export class ArchiveCommentsCommand {
  constructor(readonly target: CommentTarget, readonly actor: Actor) {}
}
