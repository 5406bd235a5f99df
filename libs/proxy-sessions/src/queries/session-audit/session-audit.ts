import {
  PROXY_SESSION_CREATED, PROXY_SESSION_DECIDED, PROXY_SESSION_DELETED, PROXY_SESSIONS_TOPIC, PROXY_SESSIONS_TOUCHED,
  ProxySessionCreated, ProxySessionDecided, ProxySessionDeleted, ProxySessionsTouched,
} from '@crawlhub/contracts';
import { AuditedEvent, auditedEventOf, EventLog, partitionForKey } from '@crawlhub/eventlog';

/**
 * A key's proxy sessions as the event log alone tells them (no view is read, so it works
 * with the views deleted): what `crawlhub audit <key id>` prints. Each decision is shown
 * with the request it decided (its limit and idle time), the rules' version and what was
 * decided; touches and deletes as they were appended.
 */
export interface SessionAuditEntry extends AuditedEvent {
  /** The session a decision or a delete is about. */
  session?: string;
  exit?: string;
  /** For a decision: its request's limit and idle time, the rules' version and the outcome. */
  request?: Pick<ProxySessionCreated, 'limit' | 'idleMs'>;
  deciderVersion?: number;
  outcome?: ProxySessionDecided['outcome'];
  forgotten?: string[];
  failed?: string;
  /** For a touch: session id -> last use (ms). */
  lastUsed?: Record<string, number>;
}

/** An API key id, whose sessions `crawlhub audit` shows. */
export const SESSION_AUDIT_TARGET = /^key-[0-9a-f]{12}$/;

export async function sessionAuditEntries(log: EventLog, user: string): Promise<SessionAuditEntry[]> {
  await log.ensureTopics([PROXY_SESSIONS_TOPIC]);
  const partition = partitionForKey(user, log.partitionCount(PROXY_SESSIONS_TOPIC));
  // Requests by event id: a fact names its request by causation id, and follows it in the partition.
  const requests = new Map<string, ProxySessionCreated>();
  const entries: SessionAuditEntry[] = [];
  for (let from = 0; ; ) {
    const page = await log.read(PROXY_SESSIONS_TOPIC, partition, from, 1000);
    if (page.length === 0) break;
    for (const e of page) {
      if (e.event.key !== user) continue;
      if (e.event.type === PROXY_SESSION_CREATED) requests.set(e.event.id, e.event.data as ProxySessionCreated);
      else if (e.event.type === PROXY_SESSION_DECIDED) {
        const d = e.event.data as ProxySessionDecided;
        const request = requests.get(e.event.causationId ?? '');
        entries.push({
          ...auditedEventOf(e),
          session: d.id,
          exit: d.exit,
          ...(request ? { request: { limit: request.limit, idleMs: request.idleMs } } : {}),
          deciderVersion: d.deciderVersion,
          ...(d.failed === undefined ? { outcome: d.outcome } : { failed: d.failed }),
          forgotten: d.forgotten,
        });
      } else if (e.event.type === PROXY_SESSIONS_TOUCHED) entries.push({ ...auditedEventOf(e), lastUsed: (e.event.data as ProxySessionsTouched).lastUsed });
      else if (e.event.type === PROXY_SESSION_DELETED) entries.push({ ...auditedEventOf(e), session: (e.event.data as ProxySessionDeleted).id });
    }
    from = page[page.length - 1].offset + 1;
  }
  return entries;
}

/** One line of text per entry: when, where, what, who, and the ids that tie it to its cause. */
export function sessionAuditLine(a: SessionAuditEntry): string {
  const head = `${a.at}  ${a.position}  ${a.type} v${a.version}  by ${a.actor.kind}:${a.actor.id}  correlation ${a.correlationId}${a.causationId ? `  caused by ${a.causationId}` : ''}`;
  if (a.deciderVersion !== undefined) {
    const asked = a.request ? `limit ${a.request.limit}, idle ${a.request.idleMs} ms` : '(request not found)';
    const what = a.failed !== undefined ? `could not be decided: ${a.failed}` : `-> ${a.outcome}${a.forgotten?.length ? `  forgot idle ${a.forgotten.join(' ')}` : ''}`;
    return `${head}  decider v${a.deciderVersion}  session ${a.session} on ${a.exit} (${asked}) ${what}`;
  }
  if (a.lastUsed) return `${head}  ${Object.entries(a.lastUsed).map(([id, ms]) => `${id} used ${new Date(ms).toISOString()}`).join(', ')}`;
  return `${head}  session ${a.session}`;
}
