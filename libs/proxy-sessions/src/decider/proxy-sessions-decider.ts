import { Inject, Injectable } from '@nestjs/common';
import { EventEnvelope, PROXY_SESSION_CREATED, PROXY_SESSION_DECIDED, PROXY_SESSIONS_TOPIC, ProxySessionCreated, ProxySessionDecided } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsDecider, DecidingPorts, EventWriter, FactDecider } from '@crawlhub/views';
import { decideSessionCreate, PROXY_SESSIONS_DECIDER_VERSION } from '../domain/decide-sessions';
import { PROXY_SESSIONS_VIEW, ProxySessionsView } from '../ports/proxy-sessions.view';

/** The consumer group of the sessions decider: one member owns each partition of the topic. */
export const PROXY_SESSIONS_DECIDER_GROUP = 'proxy-sessions-decider';

/**
 * The single decider of a user's sessions (run by the projector role beside the projector):
 * decides each create request with the rules of `decide-sessions.ts` on the sessions view
 * and appends a `proxy-sessions.decided` fact (FactDecider: exactly once in effect across
 * restarts and rebalances; upgrade of a log written before facts on replay).
 */
@AsDecider()
@Injectable()
export class ProxySessionsDecider extends FactDecider {
  constructor(ports: DecidingPorts, @Inject(PROXY_SESSIONS_VIEW) view: ProxySessionsView) {
    super(ports, {
      topic: PROXY_SESSIONS_TOPIC,
      groupId: PROXY_SESSIONS_DECIDER_GROUP,
      views: view,
      viewsNamed: 'proxy sessions',
      requestTypes: [PROXY_SESSION_CREATED],
      // A create reads the user's touches (plain events), and the limits what the create before it decided.
      oneAtATime: true,
      openRun: () => async (e) => {
        const decision = await decideSessionCreate(view, e.event.data as ProxySessionCreated, e.offset);
        return factOf(ports.writer, e, decision);
      },
      failedFact: (e, failed) => factOf(ports.writer, e, { forgotten: [], failed }),
    });
  }
}

/** The fact of a create request: in its partition (same key), on behalf of its actor, caused by it. */
function factOf(writer: EventWriter, e: LoggedEvent, outcome: Pick<ProxySessionDecided, 'outcome' | 'forgotten' | 'failed'>): EventEnvelope<ProxySessionDecided> {
  const d = e.event.data as ProxySessionCreated;
  const data: ProxySessionDecided = {
    user: d.user,
    id: d.id,
    exit: d.exit,
    requestOffset: e.offset,
    requestedAt: d.at,
    deciderVersion: PROXY_SESSIONS_DECIDER_VERSION,
    ...outcome,
  };
  return writer.createEvent({ type: PROXY_SESSION_DECIDED, key: e.event.key, data, actor: e.event.actor, correlationId: e.event.correlationId, causationId: e.event.id });
}
