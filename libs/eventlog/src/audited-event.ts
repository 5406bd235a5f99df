import type { EventEnvelope } from '@crawlhub/contracts';
import type { LoggedEvent } from './event-log.port';

/** What every audit entry (`crawlhub audit`: jobs, frontier, proxy sessions) shows of the event it is made of. */
export interface AuditedEvent {
  at: string;
  /** topic/partition@offset */
  position: string;
  type: string;
  version: number;
  eventId: string;
  actor: EventEnvelope['actor'];
  correlationId: string;
  causationId: string | null;
}

export function auditedEventOf(e: LoggedEvent): AuditedEvent {
  const ev = e.event;
  return {
    at: new Date(ev.occurredAt).toISOString(),
    position: `${e.topic}/${e.partition}@${e.offset}`,
    type: ev.type,
    version: ev.version,
    eventId: ev.id,
    actor: ev.actor,
    correlationId: ev.correlationId,
    causationId: ev.causationId,
  };
}
