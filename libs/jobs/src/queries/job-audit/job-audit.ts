import type { AuditEntry } from '@crawlhub/wire';
import { JOB_DATA_TOPIC, JOB_METADATA_TOPIC, JOBS_DECIDED, JOBS_REQUESTED_TYPES, JOBS_TOPIC, JobsDecided, JobsRequested } from '@crawlhub/contracts';
import { auditedEventOf, EventLog, LoggedEvent, partitionForKey } from '@crawlhub/eventlog';
import { JobsDecision } from '../../domain/decide-jobs';

/**
 * A job's or a project's history read from the event log alone (no view is read, so it
 * works with the views deleted): what `crawlhub audit` prints and the dash API's
 * jobs/audit.json answers (the console's job page shows it). Job changes are the decider's facts
 * (`jobs.decided`), each shown with the request that caused it; a job's own writes (items,
 * logs, metadata) are its events in the job topics.
 */

/** One line of the history; `--json` prints these as they are, one JSON object per line (its type is the wire's: the console reads it). */
export type { AuditEntry };

export type AuditTarget = { project: number; job: string | null };

/** `1` (a project) or `1/2/3` (a job), else null. */
export function auditTargetOf(arg: string | undefined): AuditTarget | null {
  if (arg && /^\d{1,15}$/.test(arg)) return { project: Number(arg), job: null };
  if (arg && /^\d{1,15}\/\d{1,15}\/\d{1,15}$/.test(arg)) return { project: Number(arg.split('/')[0]), job: arg };
  return null;
}

export async function auditEntries(log: EventLog, target: AuditTarget): Promise<AuditEntry[]> {
  await log.ensureTopics([JOBS_TOPIC, JOB_DATA_TOPIC, JOB_METADATA_TOPIC]);
  const entries: AuditEntry[] = [];
  const project = String(target.project);
  // Requests by event id: a fact names its request by causation id, and follows it in the partition.
  const requests = new Map<string, JobsRequested>();
  for await (const e of partitionEvents(log, JOBS_TOPIC, project)) {
    if (e.event.key !== project) continue;
    if (e.event.type !== JOBS_DECIDED) {
      if (JOBS_REQUESTED_TYPES.includes(e.event.type)) requests.set(e.event.id, e.event.data as JobsRequested);
      continue;
    }
    const d = e.event.data as JobsDecided;
    const decision = d.decision as JobsDecision | undefined;
    const jobs = decision?.effects.jobs.map((j) => ({ key: j.key, state: j.state })) ?? [];
    const purged = decision?.effects.purge ?? [];
    if (target.job !== null && !jobs.some((j) => j.key === target.job) && !purged.includes(target.job)) continue;
    const request = requests.get(e.event.causationId ?? '')?.request;
    entries.push({
      ...auditedEventOf(e),
      ...(request ? { request } : {}),
      deciderVersion: d.deciderVersion,
      ...(decision ? { outcome: decision.outcome } : { failed: d.failed }),
      jobs,
      ...(purged.length ? { purged } : {}),
    });
  }
  // What the job wrote and what clients wrote to its metadata: keyed by the job.
  if (target.job !== null) {
    for (const topic of [JOB_DATA_TOPIC, JOB_METADATA_TOPIC]) {
      for await (const e of partitionEvents(log, topic, target.job)) {
        if (e.event.key === target.job) entries.push({ ...auditedEventOf(e), data: e.event.data, ...(e.event.lines ? { records: e.event.lines.length } : {}) });
      }
    }
  }
  return entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** One line of text per entry: when, where, what, who, and the ids that tie it to its cause. */
export function auditLine(a: AuditEntry): string {
  const head = `${a.at}  ${a.position}  ${a.type} v${a.version}  by ${a.actor.kind}:${a.actor.id}  correlation ${a.correlationId}${a.causationId ? `  caused by ${a.causationId}` : ''}`;
  if (a.deciderVersion !== undefined) {
    const what = a.failed !== undefined ? `could not be decided: ${a.failed}` : `-> ${JSON.stringify(a.outcome)}${a.jobs?.length ? `  jobs ${a.jobs.map((j) => `${j.key}:${j.state}`).join(' ')}` : ''}`;
    return `${head}  decider v${a.deciderVersion}  ${a.request ? JSON.stringify(a.request) : '(request not found)'} ${what}`;
  }
  return `${head}  ${JSON.stringify(a.data)}${a.records !== undefined ? ` +${a.records} records` : ''}`;
}

/** Every event of the partition a key lands in, oldest first. */
async function* partitionEvents(log: EventLog, topic: string, key: string): AsyncGenerator<LoggedEvent> {
  const partition = partitionForKey(key, log.partitionCount(topic));
  for (let from = 0; ; ) {
    const page = await log.read(topic, partition, from, 1000);
    if (page.length === 0) return;
    yield* page;
    from = page[page.length - 1].offset + 1;
  }
}
