import { ApiError, parseId, parseUnsignedInteger, Query, single } from '@crawlhub/http';

/** A project id: anything but a non-negative integer is a 400. */
export function projectOf(segment: string | undefined): number {
  const id = parseId(segment);
  if (id === null) throw ApiError.badRequest(`Invalid project id: ${JSON.stringify(segment ?? '')}`);
  return id;
}

const MAX_COUNT = 999_999_999;

/** An optional non-negative count parameter (`count`, `pcount`). */
export function countOf(q: Query, name: string): number | undefined {
  const v = single(q, name);
  if (v === undefined) return undefined;
  const n = parseUnsignedInteger(v, MAX_COUNT);
  if (n === null) throw ApiError.badRequest(`Invalid ${name}: ${JSON.stringify(v)}`);
  return n;
}
