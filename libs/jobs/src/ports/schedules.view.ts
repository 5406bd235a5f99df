import { ScheduleSet } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';

export const SCHEDULES_VIEW = Symbol('SCHEDULES_VIEW');

/** A periodic job: what `schedule.set` said, and when it was first set (fires count from then). */
export interface Schedule extends Omit<ScheduleSet, 'by'> {
  createdAt: number;
  updatedBy: string;
}

export interface SchedulesView {
  put(at: LogPosition, schedule: Schedule): Promise<void>;
  remove(at: LogPosition, project: number, id: string): Promise<void>;
  get(project: number, id: string): Promise<Schedule | null>;
  /** A project's schedules, or every project's. */
  list(project?: number): Promise<Schedule[]>;
}
