import { CommentTarget } from '../../domain/comment';

/** The comments of a job, or of one target (item or field) of it. */
export class ReadCommentsQuery {
  constructor(readonly scope: { job: { project: number; spider: number; job: number } } | { target: CommentTarget }) {}
}
