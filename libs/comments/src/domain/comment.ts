import type { CommentObject } from '@crawlhub/wire';

/**
 * Comments on scraped items and item fields. A comment belongs to one target: an item
 * (`field` null) or one field of an item, of one job of one project.
 */
export interface CommentTarget {
  project: number;
  spider: number;
  job: number;
  item: number;
  field: string | null;
}

/** A comment as the views keep it. Times are milliseconds since the epoch (event times). */
export interface StoredComment extends CommentTarget {
  id: number;
  author: string;
  text: string;
  created: number;
  archived: number | null;
}

/** The comment object of the API, keys in the documented order (its type is the wire's: the console reads it). */
export type { CommentObject };

/** Number of items of a job that have at least one unarchived comment (on the item or a field). */
export interface JobCommentStats {
  spider: number;
  job: number;
  items: number;
}

/**
 * Partitions per topic are at most 1024 (EVENT_LOG_PARTITIONS), so an id made of the
 * `comment.added` event's offset and partition is unique across the whole topic, an
 * integer (as the original's ids), and the same whenever the event is applied again.
 */
export const MAX_PARTITIONS = 1024;

export function commentIdAt(position: { partition: number; offset: number }): number {
  if (position.partition < 0 || position.partition >= MAX_PARTITIONS) throw new Error(`comments: partition ${position.partition} out of range`);
  return position.offset * MAX_PARTITIONS + position.partition + 1;
}

/** Longest comment text, in characters. */
export const MAX_COMMENT_CHARS = 65_536;

/** Why a comment text is refused (missing, blank, too long); null when it is fine. */
export function commentTextProblem(text: string | null): string | null {
  if (text === null) return 'the "text" parameter is required';
  if (text.trim() === '') return 'the "text" parameter must not be empty';
  if (text.length > MAX_COMMENT_CHARS) return `the "text" parameter is longer than ${MAX_COMMENT_CHARS} characters`;
  return null;
}

/** `<item_no>` or `<item_no>/<field>`: the key of a target in the per-job listing. */
export function targetKey(c: { item: number; field: string | null }): string {
  return c.field === null ? String(c.item) : `${c.item}/${c.field}`;
}

/**
 * The API form of a comment for a viewer: times as ISO-8601 UTC with milliseconds,
 * `archived` null while active, `editable` for the author only. There is no avatar
 * service: `avatar` is always the empty string.
 */
export function commentObject(c: StoredComment, viewerId: string): CommentObject {
  return {
    id: c.id,
    created: new Date(c.created).toISOString(),
    archived: c.archived === null ? null : new Date(c.archived).toISOString(),
    author: c.author,
    avatar: '',
    text: c.text,
    editable: c.author === viewerId,
  };
}
