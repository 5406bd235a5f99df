import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { Actor, createEvent, JOBS_TOPIC, jobsRequestedType, JobsRequest, JobsRequested } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { EventWriter, ProjectionLagError } from '@crawlhub/views';
import { JobsOutcome } from '../../domain/decide-jobs';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';

/** Longest pause between two looks at the views while the decision is awaited. */
const MAX_POLL_MS = 20;

/** The outcome of a request of the operation `Op`. */
export type OutcomeOf<Op extends JobsRequest['op']> = Extract<JobsOutcome, { op: Op }>;

/**
 * The one write path of the jobs use cases (their handlers call it): appends a request
 * to the project's stream in the topic `jobs` and answers with what the project's decider
 * decided for it, once the views have folded the decider's `jobs.decided` fact
 * (read-your-writes: the documents it wrote are readable). The outcome is also kept under
 * `requestId`: a caller whose wait ended with ProjectionLagError reads it later from the
 * jobs view (`outcome`), as the runner does with its claims.
 */
@Injectable()
export class JobsRequests {
  constructor(private readonly writer: EventWriter, @Inject(JOBS_VIEW) private readonly view: JobsView, @Inject(CONFIG) private readonly config: CrawlhubConfig) {}

  async decide<R extends JobsRequest>(project: number, request: R, actor: Actor, requestId: string): Promise<OutcomeOf<R['op']>> {
    const data: JobsRequested = { requestId, project, request };
    const [appended] = await this.writer.append(JOBS_TOPIC, [createEvent({ type: jobsRequestedType(request.op), key: String(project), data, actor })]);
    await this.decided(appended);
    const decision = await this.view.outcome(requestId);
    if (decision) return decision.outcome as OutcomeOf<R['op']>;
    // Decided without a decision kept in the view: a runner check that failed nothing (see JobsProjection).
    if (request.op === 'check-runners') return { op: 'check-runners', failed: [] } as JobsOutcome as OutcomeOf<R['op']>;
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
