import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { createEvent, JOBS_TOPIC, jobsRequestedType, JobsRequested } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { EventWriter, ProjectionLagError } from '@crawlhub/views';
import { JobsOutcome } from '../../domain/decide-jobs';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';
import { RequestJobsChangeCommand } from './request-jobs-change.command';

/** Longest pause between two looks at the views while the decision is awaited. */
const MAX_POLL_MS = 20;

/**
 * Appends the request and answers with what the decider decided for it, once the views
 * have folded the decider's fact (read-your-writes: the documents it wrote are readable).
 */
@CommandHandler(RequestJobsChangeCommand)
export class RequestJobsChangeHandler implements ICommandHandler<RequestJobsChangeCommand, JobsOutcome> {
  constructor(private readonly writer: EventWriter, @Inject(JOBS_VIEW) private readonly view: JobsView, @Inject(CONFIG) private readonly config: CrawlhubConfig) {}

  async execute(cmd: RequestJobsChangeCommand): Promise<JobsOutcome> {
    const { requestId } = cmd;
    const data: JobsRequested = { requestId, project: cmd.project, request: cmd.request };
    const [request] = await this.writer.append(JOBS_TOPIC, [createEvent({ type: jobsRequestedType(cmd.request.op), key: String(cmd.project), data, actor: cmd.actor })]);
    await this.decided(request);
    const decision = await this.view.outcome(requestId);
    if (decision) return decision.outcome;
    // Decided without a decision kept in the view: a runner check that failed nothing (see JobsProjection).
    if (cmd.request.op === 'check-runners') return { op: 'check-runners', failed: [] };
    throw new Error(`jobs request ${requestId} could not be decided (its jobs.decided fact says why; see the projector's log)`);
  }

  /** Until the views have folded the request's fact: its partition's decided-through mark reaches it. */
  private async decided(request: LogPosition): Promise<void> {
    const deadline = Date.now() + this.config.readYourWritesTimeoutMs;
    for (let pause = 1; (await this.view.decidedThrough(request.partition)) < request.offset; pause = Math.min(MAX_POLL_MS, pause * 2)) {
      if (Date.now() >= deadline) throw new ProjectionLagError();
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}
