/**
 * Integers written as text (path segments, query and form parameters, headers) are read
 * by this one rule everywhere: decimal digits only, so no sign, fraction, exponent,
 * hexadecimal, spaces or empty text (`Number()` would take `1e0`, ` 1`, `0x1` and `1.0`),
 * and exact: nothing at or past 2^53, where a JavaScript number stops counting by one.
 */
const DIGITS = /^0*([0-9]{1,16})$/;

/** The value of a decimal integer text from 0 to `max` (at most 2^53 - 1), or null for anything else. */
export function parseUnsignedInteger(text: string | null | undefined, max: number = Number.MAX_SAFE_INTEGER): number | null {
  if (text === null || text === undefined) return null;
  const m = DIGITS.exec(text);
  if (!m) return null;
  // 16 digits can reach 2^53 and beyond, where Number() rounds: such a value is above every allowed max.
  const n = Number(m[1]);
  return n <= Math.min(max, Number.MAX_SAFE_INTEGER) ? n : null;
}

/** The largest id (project, spider, job): 15 digits, as every id pattern of the APIs has it. */
export const MAX_ID = 999_999_999_999_999;

/** Parses an id path segment (project, spider, job); null when it is not a non-negative integer of at most 15 digits. */
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
