import { z } from 'zod';
import { defineTopic, PROJECT_ID } from '../../topic-contract';

/**
 * Topic `comments`: notes on scraped items and item fields (dash API /api/comments).
 * Key: the project id, so every comment of a project lives in one partition, in order.
 *
 * A comment's id is decided when its `comment.added` event is applied: it is derived
 * from the event's log position (see `commentIdAt` in libs/comments), so it is unique
 * across projects (PUT/DELETE /comments/<id> carry no project) and the same on replay.
 * Later events name the comment by that id, together with its project.
 */
export const COMMENTS_TOPIC = 'comments';

/** A new comment on an item (`field` null) or on one field of an item. */
const COUNT = z.number().int().nonnegative();
const COMMENT_TARGET = z.object({ project: PROJECT_ID, spider: COUNT, job: COUNT, item: COUNT, field: z.string().nullable() });
const COMMENT_ID = z.number().int().nonnegative();

export const COMMENT_ADDED = 'comment.added';
const COMMENT_ADDED_DATA = COMMENT_TARGET.extend({
  /** The API key id of the author (the one who may edit or delete it). */
  author: z.string().min(1),
  text: z.string(),
});
export type CommentAdded = z.infer<typeof COMMENT_ADDED_DATA>;

/** The text of a comment of `project` replaced (PUT /comments/<id>). */
export const COMMENT_EDITED = 'comment.edited';
const COMMENT_EDITED_DATA = z.object({ project: PROJECT_ID, id: COMMENT_ID, text: z.string() });
export type CommentEdited = z.infer<typeof COMMENT_EDITED_DATA>;

/**
 * Every comment of the target that is active when the event is applied becomes
 * archived at the event's time (DELETE on the item or field route). Exactly that
 * target: archiving an item leaves the comments of its fields alone.
 */
export const COMMENT_ARCHIVED = 'comment.archived';
export type CommentArchived = z.infer<typeof COMMENT_TARGET>;

/** A comment of `project` removed for good (DELETE /comments/<id>). */
export const COMMENT_DELETED = 'comment.deleted';
const COMMENT_DELETED_DATA = z.object({ project: PROJECT_ID, id: COMMENT_ID });
export type CommentDeleted = z.infer<typeof COMMENT_DELETED_DATA>;

export const COMMENTS_CONTRACT = defineTopic(
  [COMMENTS_TOPIC],
  { [COMMENT_ADDED]: COMMENT_ADDED_DATA, [COMMENT_EDITED]: COMMENT_EDITED_DATA, [COMMENT_ARCHIVED]: COMMENT_TARGET, [COMMENT_DELETED]: COMMENT_DELETED_DATA },
  (_type, d) => String(d.project),
);
