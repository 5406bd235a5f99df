import { LogPosition } from '@crawlhub/eventlog';
import { CommentTarget, JobCommentStats, StoredComment } from '../domain/comment';

export const COMMENTS_VIEW = Symbol('COMMENTS_VIEW');

/**
 * The comments of every project. Changes name the comment's project as well as its id:
 * a change for a comment of another project changes nothing, so every change of a
 * comment comes from its project's partition, in log order. Applying an event again
 * changes nothing.
 */
export interface CommentsView {
  /** Stores a new comment; an id that is already known (or was deleted) is left alone. */
  add(at: LogPosition, comment: StoredComment): Promise<void>;
  edit(at: LogPosition, project: number, id: number, text: string): Promise<void>;
  /** Archives, at time `archived`, the comments of exactly this target that are still active; `by` is the event id. */
  archive(at: LogPosition, target: CommentTarget, archived: number, by: string): Promise<void>;
  remove(at: LogPosition, project: number, id: number): Promise<void>;

  get(id: number): Promise<StoredComment | null>;
  /** The comments of a job (archived ones too): by item, item before its fields, fields by name, then by id. */
  ofJob(job: { project: number; spider: number; job: number }): Promise<StoredComment[]>;
  /** The comments of exactly one target (archived ones too), by id. */
  ofTarget(target: CommentTarget): Promise<StoredComment[]>;
  /** The comments of the target that the archive event `by` archived, by id. */
  archivedBy(target: CommentTarget, by: string): Promise<StoredComment[]>;
  /** Jobs of the project with items that have unarchived comments, by spider and job. */
  stats(project: number): Promise<JobCommentStats[]>;
}
