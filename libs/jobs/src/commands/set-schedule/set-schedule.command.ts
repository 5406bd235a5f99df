import { z } from 'zod';
import { Actor, EventStamps, ScheduleDeleted, ScheduleSet } from '@crawlhub/contracts';
import { CronError, nextFire, parseCron } from '../../domain/cron';
import { checked, integerIn, spiderName, stringList } from '../shared/command-input';

const required = (message: string) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx): unknown => {
      if (value !== undefined && value !== null && value !== '') return value;
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    });

/** A periodic job, checked in the order dash schedules/add.json has always checked it: its cron must fire after `clock`'s now; a new one's id comes from `ids`. */
const scheduleOf = ({ clock, ids }: EventStamps) =>
  z.object({
    project: z.number().int().nonnegative(),
    spider: required('spider is required').pipe(spiderName),
    cron: required('cron is required (five fields, UTC: minute hour day month weekday)').transform((cron, ctx): string => {
      try {
        nextFire(parseCron(String(cron)), clock.now());
        return String(cron);
      } catch (e) {
        if (!(e instanceof CronError)) throw e;
        ctx.addIssue({ code: 'custom', message: e.message });
        return z.NEVER;
      }
    }),
    /** Absent: a new schedule with an id of its own; given: that schedule, created or replaced. */
    id: z
      .string()
      .optional()
      .transform((id) => id ?? ids.hex(4))
      .pipe(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'id must be 1 to 64 letters, digits, _ or -')),
    spiderArgs: z.record(z.string(), z.string()).default({}),
    enabled: z.boolean().default(true),
    priority: integerIn('priority', 2, 0, 4),
    units: integerIn('units', 1, 1, 6),
    tags: stringList('tags'),
    by: z.string(),
  });

/** What a schedule says; absent fields take their defaults (a new id, priority 2, 1 unit, enabled). */
export type ScheduleInput = { project: number; spider: unknown; cron: unknown; by: string; id?: string; spiderArgs?: Record<string, string>; enabled?: boolean; priority?: unknown; units?: unknown; tags?: unknown };

/**
 * Creates or replaces a periodic job (`set`), or removes it (`delete`; a schedule that does
 * not exist is a 404). `stamps`: the process's CLOCK and IDS, for the check and a new id.
 */
export class SetScheduleCommand {
  readonly change: { set: ScheduleSet } | { delete: ScheduleDeleted };
  /** The schedule's id (a new schedule's own, when none was given). */
  readonly id: string;

  constructor(change: { set: ScheduleInput } | { delete: ScheduleDeleted }, readonly actor: Actor, stamps: EventStamps) {
    this.change = 'set' in change ? { set: checked(scheduleOf(stamps), change.set) } : change;
    this.id = 'set' in this.change ? this.change.set.id : this.change.delete.id;
  }
}
