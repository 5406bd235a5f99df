import { z } from 'zod';
import { defineTopic, PROJECT_ID } from '../../topic-contract';

/**
 * Topic `activity`: the activity log of a project (messages posted through
 * `POST activity/<project>`). Key: the project id, so one project's posts are ordered
 * and owned by one partition.
 *
 * `activity.posted` carries the messages as the event's `lines` attachment: one compact
 * JSON object text per message, in the order they were written. A POST is one event, so
 * it is stored whole or not at all. Each message's id is derived from the event id and
 * its index in `lines` (see `activityMessageId` in @crawlhub/activity), so re-applying
 * the event stores nothing twice.
 *
 * Platform messages (`job:scheduled`, `job:completed`...) are not posted on this topic:
 * the context that owns the fact records them from its own projection.
 */
export const ACTIVITY_TOPIC = 'activity';

export const ACTIVITY_POSTED = 'activity.posted';
const ACTIVITY_POSTED_DATA = z.object({ project: PROJECT_ID });
export type ActivityPosted = z.infer<typeof ACTIVITY_POSTED_DATA>;

export const ACTIVITY_CONTRACT = defineTopic([ACTIVITY_TOPIC], { [ACTIVITY_POSTED]: ACTIVITY_POSTED_DATA }, (_type, d) => String(d.project));
