/**
 * Topic `schedules`: periodic jobs, keyed by the project id. A schedule pushes a job of
 * its spider at every minute its cron expression matches (UTC); the runs themselves are
 * `jobs.push-requested` events carrying the schedule and slot, so the log alone tells
 * what fired.
 */
export const SCHEDULES_TOPIC = 'schedules';

export interface ScheduleSet {
  project: number;
  id: string;
  spider: string;
  cron: string;
  priority: number;
  units: number;
  tags: string[];
  spiderArgs: Record<string, string>;
  enabled: boolean;
  by: string;
}
export const SCHEDULE_SET = 'schedule.set';

export interface ScheduleDeleted {
  project: number;
  id: string;
}
export const SCHEDULE_DELETED = 'schedule.deleted';
