import { randomUUID } from 'node:crypto';
import { Actor, JobsRequest } from '@crawlhub/contracts';

/**
 * Every change to a project's jobs (push, start, update, cancel, tags) goes through this
 * command. Its outcome is recorded under `requestId`: a caller whose answer was lost (the
 * views lagged) reads it later from the jobs view (`outcome`).
 */
export class RequestJobsChangeCommand {
  constructor(readonly project: number, readonly request: JobsRequest, readonly actor: Actor, readonly requestId: string = randomUUID()) {}
}
