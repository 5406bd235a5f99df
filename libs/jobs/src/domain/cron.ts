import { Cron as Croner } from 'croner';

/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week), in UTC, read
 * and stepped by croner: `*`, numbers, names (`MON`, `JAN`), ranges `a-b`, lists `a,b`,
 * steps `*\/n` and `a-b/n`, day-of-week 0-7 (0 and 7 are Sunday), the nicknames
 * (`@daily`, `@weekly`...) and croner's `L`, `W`, `#`. When both day fields are
 * restricted, either may match, as in Vixie cron. The next and the last fire are computed
 * from the fields, not searched minute by minute.
 */
export class CronError extends Error {}

export type Cron = Croner;

export function parseCron(expr: string): Cron {
  try {
    // No function: croner only computes dates, it never arms a timer.
    return new Croner(expr.trim(), { timezone: 'UTC', mode: '5-part', domAndDow: false });
  } catch (e) {
    throw new CronError(`invalid cron expression ${JSON.stringify(expr)} (five fields, UTC: minute hour day month weekday): ${(e as Error).message.replace(/^CronPattern: /, '')}`);
  }
}

/** The first minute strictly after `afterMs` that the expression matches. */
export function nextFire(c: Cron, afterMs: number): number {
  const next = c.nextRun(new Date(afterMs));
  if (next === null) throw new CronError(`the cron expression ${JSON.stringify(c.getPattern())} never fires`);
  return next.getTime();
}

/** The last minute at or before `atMs` that the expression matches, after `afterMs`; null when none. */
export function lastFireBetween(c: Cron, afterMs: number, atMs: number): number | null {
  // previousRuns answers the runs before its reference: one millisecond on, a run at `atMs` counts.
  const [last] = c.previousRuns(1, new Date(atMs + 1));
  return last !== undefined && last.getTime() > afterMs ? last.getTime() : null;
}
