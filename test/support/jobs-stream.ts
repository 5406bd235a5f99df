import { JOBS_TOPIC } from '@crawlhub/contracts';
import { EventLog, LoggedEvent, partitionForKey } from '@crawlhub/eventlog';

/** Every event of a project's stream in the jobs topic (requests, facts, heartbeats), oldest first. */
export async function projectStream(log: EventLog, project: number): Promise<LoggedEvent[]> {
  await log.ensureTopics([JOBS_TOPIC]);
  const partition = partitionForKey(String(project), log.partitionCount(JOBS_TOPIC));
  const events: LoggedEvent[] = [];
  for (let from = 0; ; ) {
    const page = await log.read(JOBS_TOPIC, partition, from, 1000);
    if (page.length === 0) break;
    events.push(...page.filter((e) => e.event.key === String(project)));
    from = page[page.length - 1].offset + 1;
  }
  return events;
}
