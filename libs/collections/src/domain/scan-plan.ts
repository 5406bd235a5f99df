import { compareKeys, keyAfter, prefixEnd } from './collection-record';

/** Keys from `low` (inclusive) to `high` (exclusive; null: no end); at most `cap` matches from it (prefixcount). */
export interface KeySegment {
  low: string;
  high: string | null;
  cap: number;
}

/** What a scan reads: key ranges in byte order, or exact keys (already sorted and bounded). */
export type ScanPlan = { segments: KeySegment[] } | { keys: string[] };

export interface ScanSelection {
  /** `key` parameters: exactly these records (missing ones are skipped). */
  keys?: string[];
  /** `prefix` parameters: records whose key starts with any of them. */
  prefixes?: string[];
  /** `prefixcount`: at most this many matches per prefix. */
  prefixcount?: number;
  /** `start`: keys from this one on (inclusive). */
  start?: string;
  /** `startafter`: keys after this one. */
  startafter?: string;
}

const max = (a: string, b: string) => (compareKeys(a, b) >= 0 ? a : b);
const sortUnique = (xs: string[]) => [...new Set(xs)].sort(compareKeys);

/**
 * Turns the selection parameters into what to read, in byte order of the keys. Prefixes
 * are read one after the other in byte order; a prefix that another prefix of the list
 * already covers (`a` covers `ab`) is dropped, so no record comes twice. With `key`
 * parameters, `prefix` narrows them (a key must also start with one of the prefixes).
 */
export function planScan(s: ScanSelection): ScanPlan {
  let lower = s.start ?? '';
  if (s.startafter !== undefined) lower = max(lower, keyAfter(s.startafter));
  const prefixes: string[] = [];
  for (const p of sortUnique(s.prefixes ?? [])) if (!prefixes.some((q) => p.startsWith(q))) prefixes.push(p);
  if (s.keys && s.keys.length) {
    const keys = sortUnique(s.keys).filter((k) => compareKeys(k, lower) >= 0 && (prefixes.length === 0 || prefixes.some((p) => k.startsWith(p))));
    return { keys };
  }
  if (prefixes.length === 0) return { segments: [{ low: lower, high: null, cap: Infinity }] };
  const segments: KeySegment[] = [];
  for (const p of prefixes) {
    const high = prefixEnd(p);
    const low = max(p, lower);
    if (high !== null && compareKeys(low, high) >= 0) continue;
    segments.push({ low, high, cap: s.prefixcount ?? Infinity });
  }
  return { segments };
}
