import { Inject, Injectable } from '@nestjs/common';
import { EventEnvelope, FRONTIER_DECIDED, FRONTIER_REQUEST_TYPES, FRONTIER_TOPIC, FrontierDecided } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsDecider, DecidingPorts, EventWriter, FactDecider } from '@crawlhub/views';
import { Decided, decideFrontier, FRONTIER_DECIDER_VERSION } from '../domain/decide-frontier';
import { FRONTIER_VIEW, FrontierView } from '../ports/frontier.view';

/** The consumer group of the frontier decider: one member owns each partition of the frontier topic. */
export const FRONTIER_DECIDER_GROUP = 'frontier-decider';

/**
 * The single decider of a slot: decides each frontier request with the rules of
 * `decide-frontier.ts` on the frontier views (which fingerprints are new and the batches
 * they form, which batches a lease takes) and appends a `frontier.decided` fact
 * (FactDecider: exactly once in effect across restarts and rebalances; upgrade of a log
 * written before facts on replay).
 *
 * The facts of a consumed batch are appended together and folded once: a request never
 * reads what a pending fact changes, because one for a slot that has a pending fact first
 * has them appended and folded (facts of other slots change nothing it reads).
 */
@AsDecider()
@Injectable()
export class FrontierDecider extends FactDecider {
  constructor(ports: DecidingPorts, @Inject(FRONTIER_VIEW) view: FrontierView) {
    super(ports, {
      topic: FRONTIER_TOPIC,
      groupId: FRONTIER_DECIDER_GROUP,
      views: view,
      viewsNamed: 'frontier',
      requestTypes: FRONTIER_REQUEST_TYPES,
      openRun: (fold) => async (e, pending) => {
        // Its slot's state is what the pending facts change: they are folded first.
        if (pending.some((f) => f.key === e.event.key)) await fold();
        const { decision, lines } = await decideFrontier(view, { type: e.event.type, data: e.event.data, lines: e.event.lines ?? [], offset: e.offset, at: e.event.occurredAt });
        return factOf(ports.writer, e, { decision }, lines);
      },
      failedFact: (e, failed) => factOf(ports.writer, e, { failed }),
    });
  }
}

/** The fact of a request: in its partition (same key), on behalf of its actor, caused by it. */
function factOf(writer: EventWriter, e: LoggedEvent, outcome: Pick<FrontierDecided, 'decision' | 'failed'>, lines?: Decided['lines']): EventEnvelope<FrontierDecided> {
  const d = e.event.data as { project: number; frontier: string; slot: string; requestId?: string };
  const data: FrontierDecided = {
    project: d.project,
    frontier: d.frontier,
    slot: d.slot,
    requestId: d.requestId ?? null,
    requestOffset: e.offset,
    requestedAt: e.event.occurredAt,
    deciderVersion: FRONTIER_DECIDER_VERSION,
    ...outcome,
  };
  return writer.createEvent({
    type: FRONTIER_DECIDED,
    key: e.event.key,
    data,
    ...(lines?.length ? { lines } : {}),
    actor: e.event.actor,
    correlationId: e.event.correlationId,
    causationId: e.event.id,
  });
}
