import { z } from 'zod';
import { defineTopic, PROJECT_ID } from '../../topic-contract';

/**
 * Topic `schedules`: periodic jobs, keyed by the project id. A schedule pushes a job of
 * its spider at every minute its cron expression matches (UTC); the runs themselves are
 * `jobs.push-requested` events carrying the schedule and slot, so the log alone tells
 * what fired.
 */
export const SCHEDULES_TOPIC = 'schedules';

export const SCHEDULE_SET = 'schedule.set';
const SCHEDULE_SET_DATA = z.object({
  project: PROJECT_ID,
  id: z.string().min(1),
  spider: z.string().min(1),
  cron: z.string().min(1),
  priority: z.number().int(),
  units: z.number().int().positive(),
  tags: z.array(z.string()),
  spiderArgs: z.record(z.string(), z.string()),
  enabled: z.boolean(),
  by: z.string(),
});
export type ScheduleSet = z.infer<typeof SCHEDULE_SET_DATA>;

export const SCHEDULE_DELETED = 'schedule.deleted';
const SCHEDULE_DELETED_DATA = z.object({ project: PROJECT_ID, id: z.string().min(1) });
export type ScheduleDeleted = z.infer<typeof SCHEDULE_DELETED_DATA>;

export const SCHEDULES_CONTRACT = defineTopic(
  [SCHEDULES_TOPIC],
  { [SCHEDULE_SET]: SCHEDULE_SET_DATA, [SCHEDULE_DELETED]: SCHEDULE_DELETED_DATA },
  (_type, d) => String(d.project),
);
