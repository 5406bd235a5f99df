import { Inject, Injectable } from '@nestjs/common';
import { Actor, JOBS_TOPIC, jobsRequestedType, JobsRequest, JobsRequested } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { JobsOutcome } from '../../domain/decide-jobs';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';

/** The outcome of a request of the operation `Op`. */
export type OutcomeOf<Op extends JobsRequest['op']> = Extract<JobsOutcome, { op: Op }>;

/**
 * The one write path of the jobs use cases (their handlers call it): appends a request
 * to the project's stream in the topic `jobs` and answers with what the project's decider
 * decided for it, once the views have folded the decider's `jobs.decided` fact
 * (read-your-writes: the documents it wrote are readable). The request's id is the
 * process's (IDS) unless the caller names it: the outcome is also kept under it, and a
 * caller whose wait ended with ProjectionLagError reads it later from the jobs view
 * (`outcome`), as the runner does with its claims. A named request already decided answers
 * its outcome at once, appending nothing; one sent again before its first was decided is
 * answered by the decider with the first outcome, applied once (repeatedDecision).
 */
@Injectable()
export class JobsRequests {
  constructor(private readonly writer: EventWriter, @Inject(JOBS_VIEW) private readonly view: JobsView) {}

  async decide<R extends JobsRequest>(project: number, request: R, actor: Actor, namedId?: string): Promise<OutcomeOf<R['op']>> {
    const named = namedId !== undefined;
    const requestId = namedId ?? this.writer.ids.uuid();
    // A request named by its caller may have been decided already (sent again after a 503 or a cut connection).
    const earlier = named ? await this.view.outcome(requestId) : null;
    if (earlier) return earlier.outcome as OutcomeOf<R['op']>;
    const data: JobsRequested = { requestId, project, request };
    const [appended] = await this.writer.append(JOBS_TOPIC, [this.writer.createEvent({ type: jobsRequestedType(request.op), key: String(project), data, actor })]);
    await this.writer.waitForDecision(this.view, appended);
    const decision = await this.view.outcome(requestId);
    if (decision) return decision.outcome as OutcomeOf<R['op']>;
    // Decided without a decision kept in the view: a runner check that failed nothing (see JobsProjection).
    if (request.op === 'check-runners') return { op: 'check-runners', failed: [] } as JobsOutcome as OutcomeOf<R['op']>;
    throw new Error(`jobs request ${requestId} could not be decided (its jobs.decided fact says why; see the projector's log)`);
  }
}
