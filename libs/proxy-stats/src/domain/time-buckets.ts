/** Usage is kept in 5-minute buckets (UTC); `groupby` rolls them up. */
export const BUCKET_MS = 5 * 60 * 1000;

export const GROUP_BYS = ['max', 'hour', 'day', 'month', 'year'] as const;
/** `max`: the buckets themselves; null: no grouping (one total over the range). */
export type GroupBy = (typeof GROUP_BYS)[number] | null;

export function bucketOf(ms: number): number {
  return Math.floor(ms / BUCKET_MS) * BUCKET_MS;
}

/** Start (ms, UTC) of the group that holds time `ms`; for no grouping, `rangeStart`. */
export function groupStart(ms: number, groupBy: GroupBy, rangeStart: number): number {
  const d = new Date(ms);
  switch (groupBy) {
    case null:
      return rangeStart;
    case 'max':
      return bucketOf(ms);
    case 'hour':
      return Math.floor(ms / 3_600_000) * 3_600_000;
    case 'day':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case 'year':
      return Date.UTC(d.getUTCFullYear(), 0, 1);
  }
}

/** Start of the group after the one starting at `start` (Infinity for no grouping). */
export function nextGroupStart(start: number, groupBy: GroupBy): number {
  const d = new Date(start);
  switch (groupBy) {
    case null:
      return Infinity;
    case 'max':
      return start + BUCKET_MS;
    case 'hour':
      return start + 3_600_000;
    case 'day':
      return start + 86_400_000;
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    case 'year':
      return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
  }
}

/** `2018-12-17T15:30:00+00:00`: the time format of `time_gte`. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19) + '+00:00';
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO 8601 date or date-time (`2018-12-17`, `2018-12-17T15:30`, `2018-12-17T15:30:00.5Z`,
 * `2018-12-17T16:30:00+01:00`); without a zone it is UTC. null when it is not one.
 */
export function parseIsoDate(text: string): number | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const nums = [y, mo, d, h, mi, s].map(Number);
  if (nums[1] < 1 || nums[1] > 12 || nums[2] < 1 || nums[2] > 31 || nums[3] > 23 || nums[4] > 59 || nums[5] > 59) return null;
  let ms = Date.UTC(nums[0], nums[1] - 1, nums[2], nums[3], nums[4], nums[5], Math.floor(Number(`0.${frac || '0'}`) * 1000));
  if (new Date(ms).getUTCDate() !== nums[2]) return null; // 2018-02-31
  if (zone && zone.toUpperCase() !== 'Z') {
    const z = zone.replace(':', '');
    const offset = (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5))) * 60_000;
    if (Number(z.slice(1, 3)) > 23 || Number(z.slice(3, 5)) > 59) return null;
    ms += z[0] === '+' ? -offset : offset;
  }
  return Number.isFinite(ms) ? ms : null;
}
