import { FRONTIER_DECIDED, FRONTIER_REQUEST_TYPES, FRONTIER_TOPIC, FrontierDecided, FrontierDecision } from '@crawlhub/contracts';
import { AuditedEvent, auditedEventOf, EventLog, LoggedEvent } from '@crawlhub/eventlog';

/**
 * A project's crawl frontier history read from the event log alone (no view is read, so it
 * works with the views deleted): part of what `crawlhub audit <project>` prints. Each entry
 * is a decider's fact (`frontier.decided`) shown with the request that caused it.
 */
export interface FrontierAuditEntry extends AuditedEvent {
  /** `<frontier>/<slot>` */
  slot: string;
  /** The request decided: its type, its data, and how many requests a POST carried. */
  request?: { type: string; data: unknown; records?: number };
  deciderVersion: number;
  decision?: FrontierDecision;
  failed?: string;
}

/** Facts of the project's slots, oldest first (slots spread over every partition of the topic). */
export async function frontierAuditEntries(log: EventLog, project: number): Promise<FrontierAuditEntry[]> {
  await log.ensureTopics([FRONTIER_TOPIC]);
  const prefix = `${project}/`;
  const entries: FrontierAuditEntry[] = [];
  for (let partition = 0; partition < log.partitionCount(FRONTIER_TOPIC); partition++) {
    // Requests by event id: a fact names its request by causation id, and follows it in the partition.
    const requests = new Map<string, FrontierAuditEntry['request']>();
    for await (const e of partitionEvents(log, partition)) {
      if (!e.event.key.startsWith(prefix)) continue;
      if (FRONTIER_REQUEST_TYPES.includes(e.event.type)) {
        requests.set(e.event.id, { type: e.event.type, data: e.event.data, ...(e.event.lines ? { records: e.event.lines.length } : {}) });
        continue;
      }
      if (e.event.type !== FRONTIER_DECIDED) continue;
      const d = e.event.data as FrontierDecided;
      const request = requests.get(e.event.causationId ?? '');
      entries.push({
        ...auditedEventOf(e),
        slot: `${d.frontier}/${d.slot}`,
        ...(request ? { request } : {}),
        deciderVersion: d.deciderVersion,
        ...(d.decision ? { decision: d.decision } : { failed: d.failed }),
      });
    }
  }
  return entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.position < b.position ? -1 : 1));
}

/** One line of text per entry: when, where, what, who, the ids that tie it to its cause, and what was decided. */
export function frontierAuditLine(a: FrontierAuditEntry): string {
  const head = `${a.at}  ${a.position}  ${a.type} v${a.version}  by ${a.actor.kind}:${a.actor.id}  correlation ${a.correlationId}${a.causationId ? `  caused by ${a.causationId}` : ''}`;
  const request = a.request ? `${a.request.type}${a.request.records !== undefined ? ` (${a.request.records} requests)` : ''}` : '(request not found)';
  const what = a.failed !== undefined ? `could not be decided: ${a.failed}` : `-> ${JSON.stringify(a.decision)}`;
  return `${head}  decider v${a.deciderVersion}  slot ${a.slot}  ${request} ${what}`;
}

/** Every event of one partition of the frontier topic, oldest first. */
async function* partitionEvents(log: EventLog, partition: number): AsyncGenerator<LoggedEvent> {
  for (let from = 0; ; ) {
    const page = await log.read(FRONTIER_TOPIC, partition, from, 1000);
    if (page.length === 0) return;
    yield* page;
    from = page[page.length - 1].offset + 1;
  }
}
