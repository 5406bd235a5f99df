import { parseUnsignedInteger } from '@crawlhub/http';

/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week), in UTC:
 * `*`, numbers, ranges `a-b`, lists `a,b`, steps `*\/n` and `a-b/n`; day-of-week 0-7
 * (0 and 7 are Sunday). When both day fields are restricted, either may match, as in
 * Vixie cron.
 */
export class CronError extends Error {}

interface Field {
  min: number;
  max: number;
}
const FIELDS: Field[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12 },
  { min: 0, max: 7 },
];

export interface Cron {
  sets: Set<number>[];
  domRestricted: boolean;
  dowRestricted: boolean;
}

export function parseCron(expr: string): Cron {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) throw new CronError(`cron needs 5 fields (minute hour day month weekday), got ${parts.length}: ${JSON.stringify(expr)}`);
  const sets = parts.map((p, i) => parseField(p, FIELDS[i], i));
  if (sets[4].has(7)) sets[4].add(0);
  return { sets, domRestricted: parts[2] !== '*', dowRestricted: parts[4] !== '*' };
}

function parseField(text: string, f: Field, index: number): Set<number> {
  const out = new Set<number>();
  for (const item of text.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
    if (!m) throw new CronError(`invalid cron field ${index + 1}: ${JSON.stringify(item)}`);
    // Values within the field's range, steps from 1 to its span (`*/60` is the most a minute takes), read exactly.
    const span = f.max - f.min + 1;
    const lo = m[1] === '*' ? f.min : parseUnsignedInteger(m[2], f.max);
    const hi = m[1] === '*' ? f.max : m[3] !== undefined ? parseUnsignedInteger(m[3], f.max) : m[4] !== undefined ? f.max : lo;
    const step = m[4] !== undefined ? parseUnsignedInteger(m[4], span) : 1;
    if (lo === null || hi === null || step === null || lo < f.min || lo > hi || step < 1) {
      throw new CronError(`cron field ${index + 1} out of range ${f.min}-${f.max} (steps 1-${span}): ${JSON.stringify(item)}`);
    }
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

function matches(c: Cron, d: Date): boolean {
  const [min, hour, dom, month, dow] = c.sets;
  if (!min.has(d.getUTCMinutes()) || !hour.has(d.getUTCHours()) || !month.has(d.getUTCMonth() + 1)) return false;
  const domOk = dom.has(d.getUTCDate());
  const dowOk = dow.has(d.getUTCDay());
  if (c.domRestricted && c.dowRestricted) return domOk || dowOk;
  return domOk && dowOk;
}

/** The first minute strictly after `afterMs` that the expression matches (searching up to 5 years). */
export function nextFire(c: Cron, afterMs: number): number {
  let t = Math.floor(afterMs / 60_000) * 60_000 + 60_000;
  const limit = afterMs + 5 * 366 * 24 * 3600_000;
  while (t <= limit) {
    const d = new Date(t);
    if (!c.sets[3].has(d.getUTCMonth() + 1)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      continue;
    }
    if (matches(c, d)) return t;
    t += c.sets[1].has(d.getUTCHours()) ? 60_000 : 3600_000 - d.getUTCMinutes() * 60_000;
  }
  throw new CronError('the cron expression never fires');
}

/** The last minute at or before `atMs` that the expression matches, after `afterMs`; null when none. */
export function lastFireBetween(c: Cron, afterMs: number, atMs: number): number | null {
  let last: number | null = null;
  for (let t = nextFire(c, afterMs); t <= atMs; t = nextFire(c, t)) last = t;
  return last;
}
