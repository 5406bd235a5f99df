import { eventProblemIn, TopicContract } from '../topic-contract';
import { ACCESS_KEYS_CONTRACT } from './access-keys/access-keys.topic';
import { ACTIVITY_CONTRACT } from './activity/activity.topic';
import { COLLECTIONS_CONTRACT } from './collections/collections.topic';
import { COMMENTS_CONTRACT } from './comments/comments.topic';
import { DEPLOYS_CONTRACT } from './deploys/deploys.topic';
import { EXTRACTION_CONTRACT } from './extraction/extraction.topic';
import { FETCH_CONTRACT } from './fetch/fetch.topic';
import { FRONTIER_CONTRACT } from './frontier/frontier.topic';
import { JOB_DATA_CONTRACT } from './job-data/job-data.topic';
import { JOB_METADATA_CONTRACT } from './job-metadata/job-metadata.topic';
import { JOBS_CONTRACT } from './jobs/jobs.topic';
import { PROXY_SESSIONS_CONTRACT } from './proxy-sessions/proxy-sessions.topic';
import { PROXY_USAGE_CONTRACT } from './proxy-usage/proxy-usage.topic';
import { SCHEDULES_CONTRACT } from './schedules/schedules.topic';
import { SPIDER_COMMANDS_CONTRACT } from './spider-commands/spider-commands.topic';

/** Every topic of the log, by name, with what it may carry. */
export const TOPIC_CONTRACTS: ReadonlyMap<string, TopicContract> = new Map(
  [
    ACCESS_KEYS_CONTRACT,
    ACTIVITY_CONTRACT,
    COLLECTIONS_CONTRACT,
    COMMENTS_CONTRACT,
    DEPLOYS_CONTRACT,
    EXTRACTION_CONTRACT,
    FETCH_CONTRACT,
    FRONTIER_CONTRACT,
    JOB_DATA_CONTRACT,
    JOB_METADATA_CONTRACT,
    JOBS_CONTRACT,
    PROXY_SESSIONS_CONTRACT,
    PROXY_USAGE_CONTRACT,
    SCHEDULES_CONTRACT,
    SPIDER_COMMANDS_CONTRACT,
  ].flatMap((contract) => contract.topics.map((topic) => [topic, contract] as const)),
);

/** Why an event read from or written to `topic` is malformed (bad data, wrong key, unknown type or topic), or null. */
export function eventProblem(topic: string, e: { type: string; key: string; data: unknown }): string | null {
  const contract = TOPIC_CONTRACTS.get(topic);
  return contract ? eventProblemIn(contract, e) : `unknown topic ${topic}`;
}

/** An event that does not match its topic's contract. */
export class MalformedEventError extends Error {
  constructor(topic: string, type: string, problem: string) {
    super(`malformed ${type} event on ${topic}: ${problem}`);
  }
}
