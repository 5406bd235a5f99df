import { RecordStats } from '../ports/job-records.view';

/** Adds (sign 1) or removes (sign -1) a contribution to running stats, dropping zero counts. */
export function addToStats(stats: RecordStats, values: number, bytes: number, counts: Record<string, number>, sign: 1 | -1): void {
  stats.inputValues += sign * values;
  stats.inputBytes += sign * bytes;
  for (const k in counts) {
    const n = (stats.counts[k] ?? 0) + sign * counts[k];
    if (n > 0) stats.counts[k] = n;
    else delete stats.counts[k];
  }
}

export function countKeys(keys: string[][]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const list of keys) for (const k of list) counts[k] = (counts[k] ?? 0) + 1;
  return counts;
}
