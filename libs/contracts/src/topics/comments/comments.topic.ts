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
export const COMMENT_ADDED = 'comment.added';
export interface CommentAdded {
  project: number;
  spider: number;
  job: number;
  item: number;
  field: string | null;
  /** The API key id of the author (the one who may edit or delete it). */
  author: string;
  text: string;
}

/** The text of a comment of `project` replaced (PUT /comments/<id>). */
export const COMMENT_EDITED = 'comment.edited';
export interface CommentEdited {
  project: number;
  id: number;
  text: string;
}

/**
 * Every comment of the target that is active when the event is applied becomes
 * archived at the event's time (DELETE on the item or field route). Exactly that
 * target: archiving an item leaves the comments of its fields alone.
 */
export const COMMENT_ARCHIVED = 'comment.archived';
export interface CommentArchived {
  project: number;
  spider: number;
  job: number;
  item: number;
  field: string | null;
}

/** A comment of `project` removed for good (DELETE /comments/<id>). */
export const COMMENT_DELETED = 'comment.deleted';
export interface CommentDeleted {
  project: number;
  id: number;
}
