import { CollectionType } from '@crawlhub/contracts';
import { isCached } from './collection-record';

/**
 * Whether a record written at `ts` is still visible at `now`: records of cs and vcs
 * collections expire `expiryMs` after their `_ts`; the others never do.
 */
export function isLive(type: CollectionType, ts: number, now: number, expiryMs: number): boolean {
  return !isCached(type) || now < ts + expiryMs;
}

/** Records of cached collections written before this are expired at `now`. */
export function expiredBefore(now: number, expiryMs: number): number {
  return now - expiryMs;
}

/**
 * Versions are numbered 0, 1, 2... per key; keeping `keep` versions (the newest one
 * included) once version `newest` is written means dropping every version at or below
 * the number returned (none when it is negative).
 */
export function lastVersionToDrop(newest: number, keep: number): number {
  return newest - keep;
}
