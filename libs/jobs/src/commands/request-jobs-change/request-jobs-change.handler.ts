import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createEvent, JOBS_TOPIC, jobsRequestedType, JobsRequested } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { JobsOutcome } from '../../domain/decide-jobs';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';
import { RequestJobsChangeCommand } from './request-jobs-change.command';

/** Appends the request and answers with the outcome the decider recorded for it. */
@CommandHandler(RequestJobsChangeCommand)
export class RequestJobsChangeHandler implements ICommandHandler<RequestJobsChangeCommand, JobsOutcome> {
  constructor(private readonly writer: EventWriter, @Inject(JOBS_VIEW) private readonly view: JobsView) {}

  async execute(cmd: RequestJobsChangeCommand): Promise<JobsOutcome> {
    const { requestId } = cmd;
    const data: JobsRequested = { requestId, project: cmd.project, request: cmd.request };
    await this.writer.appendAndWait(JOBS_TOPIC, [createEvent({ type: jobsRequestedType(cmd.request.op), key: String(cmd.project), data, actor: cmd.actor })]);
    const decision = await this.view.outcome(requestId);
    if (decision) return decision.outcome;
    // Applied (the wait above passed it) without an outcome: a runner check that failed nothing (see JobsProjection).
    if (cmd.request.op === 'check-runners') return { op: 'check-runners', failed: [] };
    throw new Error(`no outcome recorded for jobs request ${requestId}`);
  }
}
