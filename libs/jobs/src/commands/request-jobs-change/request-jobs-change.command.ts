import { Actor, JobsRequest } from '@crawlhub/contracts';

/** Every change to a project's jobs (push, start, update, cancel, tags) goes through this command. */
export class RequestJobsChangeCommand {
  constructor(readonly project: number, readonly request: JobsRequest, readonly actor: Actor) {}
}
