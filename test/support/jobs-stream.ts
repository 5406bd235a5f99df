import { JOBS_TOPIC } from '@crawlhub/contracts';
import { EventLog, LoggedEvent, partitionForKey } from '@crawlhub/eventlog';

/** Every event of a partition of a topic, oldest first. */
async function partitionStream(log: EventLog, topic: string, partition: number): Promise<LoggedEvent[]> {
  const events: LoggedEvent[] = [];
  for (let from = 0; ; ) {
    const page = await log.read(topic, partition, from, 1000);
    if (page.length === 0) break;
    events.push(...page);
    from = page[page.length - 1].offset + 1;
  }
  return events;
}

/** Every event of one key's stream in a topic (requests, facts, plain events), oldest first. */
export async function keyStream(log: EventLog, topic: string, key: string): Promise<LoggedEvent[]> {
  await log.ensureTopics([topic]);
  return (await partitionStream(log, topic, partitionForKey(key, log.partitionCount(topic)))).filter((e) => e.event.key === key);
}

/** Every event of a topic, partition by partition, oldest first in each. */
export async function topicStream(log: EventLog, topic: string): Promise<LoggedEvent[]> {
  await log.ensureTopics([topic]);
  const events: LoggedEvent[] = [];
  for (let partition = 0; partition < log.partitionCount(topic); partition++) events.push(...(await partitionStream(log, topic, partition)));
  return events;
}

/** Every event of a project's stream in the jobs topic (requests, facts, heartbeats), oldest first. */
export function projectStream(log: EventLog, project: number): Promise<LoggedEvent[]> {
  return keyStream(log, JOBS_TOPIC, String(project));
}
