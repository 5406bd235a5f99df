import { MAX_ID, parseUnsignedInteger } from '@crawlhub/http';

/** A job is addressed by `<project>/<spider>/<job>`, three positive integers. */
export interface JobKey {
  project: number;
  spider: number;
  job: number;
}

export function formatJobKey(k: JobKey): string {
  return `${k.project}/${k.spider}/${k.job}`;
}

/** Parses an id path segment; null when it is not a non-negative integer of at most 15 digits. */
export function parseId(segment: string | undefined): number | null {
  return parseUnsignedInteger(segment, MAX_ID);
}

/**
 * The last position a job record can have: 2^53 - 1. Past it a number no longer counts by
 * one, so two records would share a key (or one would be stored under `…/1e+23`). Writes
 * (`?start=`, `Content-Range`) and reads (`…/<pos>`, `start=`, `index=`) use this one bound.
 */
export const MAX_POSITION = Number.MAX_SAFE_INTEGER;

/** Parses a record position; null when it is not an exact integer from 0 to MAX_POSITION. */
export function parsePosition(text: string | undefined): number | null {
  return parseUnsignedInteger(text, MAX_POSITION);
}

/** Parses a stored `p/s/j` job key (already validated when the event was written). */
export function parseJobKey(key: string): JobKey {
  const [project, spider, job] = key.split('/').map(Number);
  return { project, spider, job };
}
