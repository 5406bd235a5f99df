import { Inject, Injectable } from '@nestjs/common';
import { EventEnvelope, JOBS_DECIDED, JOBS_REQUESTED_TYPES, JOBS_TOPIC, JobsDecided, JobsRequested } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsDecider, DecidingPorts, EventWriter, FactDecider } from '@crawlhub/views';
import { decideJobs, isClientRequestId, JOBS_DECIDER_VERSION, repeatedDecision } from '../domain/decide-jobs';
import { BatchState } from './batch-state';
import { JOBS_VIEW, JobsView } from '../ports/jobs.view';

/** The consumer group of the jobs decider: one member owns each partition of the jobs topic. */
export const JOBS_DECIDER_GROUP = 'jobs-decider';

/**
 * The single decider of a project's jobs: decides each jobs request with the rules of
 * `decide-jobs.ts` on the jobs views and appends a `jobs.decided` fact (FactDecider: exactly
 * once in effect across restarts and rebalances; upgrade of a log written before facts on
 * replay). A consumed batch is decided on the views with the documents of its earlier
 * decisions laid over them (BatchState), so its facts go in one append and one wait, not
 * one per request (pushes went at some 50 a second one by one).
 */
@AsDecider()
@Injectable()
export class JobsDecider extends FactDecider {
  constructor(ports: DecidingPorts, @Inject(JOBS_VIEW) view: JobsView) {
    super(ports, {
      topic: JOBS_TOPIC,
      groupId: JOBS_DECIDER_GROUP,
      views: view,
      viewsNamed: 'jobs',
      requestTypes: JOBS_REQUESTED_TYPES,
      openRun: (fold) => {
        const state = new BatchState(view, fold);
        return async (e) => {
          const d = e.event.data as JobsRequested;
          const earlier = isClientRequestId(d.requestId) ? await state.outcome(d.requestId) : null;
          const decision = earlier ? repeatedDecision(earlier) : await decideJobs(state, { project: d.project, at: e.event.occurredAt, order: e.offset }, d.request);
          state.add(d.project, d.requestId, decision);
          return factOf(ports.writer, e, { decision });
        };
      },
      failedFact: (e, failed) => factOf(ports.writer, e, { failed }),
    });
  }
}

/** The fact of a request: in its partition (same key), on behalf of its actor, caused by it. */
function factOf(writer: EventWriter, e: LoggedEvent, outcome: Pick<JobsDecided, 'decision' | 'failed'>): EventEnvelope<JobsDecided> {
  const d = e.event.data as JobsRequested;
  const data: JobsDecided = {
    requestId: d.requestId,
    project: d.project,
    op: d.request.op,
    requestOffset: e.offset,
    requestedAt: e.event.occurredAt,
    deciderVersion: JOBS_DECIDER_VERSION,
    ...outcome,
  };
  return writer.createEvent({ type: JOBS_DECIDED, key: e.event.key, data, actor: e.event.actor, correlationId: e.event.correlationId, causationId: e.event.id });
}
