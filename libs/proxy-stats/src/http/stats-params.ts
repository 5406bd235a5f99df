import { Principal } from '@crawlhub/access';
import { ApiError, Query, single } from '@crawlhub/http';
import { decodeCursor } from '../domain/cursor';
import { bucketOf, GROUP_BYS, GroupBy, parseIsoDate } from '../domain/time-buckets';
import { ReadStatsQuery } from '../queries/read-stats/read-stats.query';

export const DEFAULT_LIMIT = 500;
export const MAX_LIMIT = 10_000;
export const MAX_USERS = 1000;
const WEEK_MS = 7 * 24 * 3600 * 1000;

function date(q: Query, name: string, fallback: number): number {
  const raw = single(q, name);
  if (raw === undefined || raw.trim() === '') return fallback;
  const ms = parseIsoDate(raw);
  if (ms === null) throw new ApiError(400, `Invalid ${name}: ${JSON.stringify(raw)} (expected an ISO 8601 date, e.g. 2018-12-17 or 2018-12-17T15:30:00Z)`);
  return ms;
}

/**
 * The parameters of GET /stats as the spec lists them, checked (400 with a message
 * naming the parameter), and who may read what: a key reads its own usage (its key id
 * is the user); only the admin key reads all users or names others in `users` (403).
 */
export function statsQueryOf(q: Query, principal: Principal, now: number): ReadStatsQuery {
  const end = date(q, 'end_date', now);
  const start = date(q, 'start_date', end - WEEK_MS);
  if (start > end) throw new ApiError(400, 'Invalid dates: start_date is after end_date');

  const g = (single(q, 'groupby') ?? '').trim().toLowerCase();
  if (g !== '' && !(GROUP_BYS as readonly string[]).includes(g)) {
    throw new ApiError(400, `Invalid groupby: ${JSON.stringify(single(q, 'groupby'))} (expected one of ${GROUP_BYS.join(', ')}, or none)`);
  }
  const groupBy = (g === '' ? null : g) as GroupBy;

  const rawLimit = (single(q, 'limit') ?? '').trim();
  const limit = rawLimit === '' ? DEFAULT_LIMIT : /^\d{1,9}$/.test(rawLimit) ? Number(rawLimit) : NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new ApiError(400, `Invalid limit: ${JSON.stringify(single(q, 'limit'))} (expected an integer from 1 to ${MAX_LIMIT})`);
  }

  const rawAfter = (single(q, 'after') ?? '').trim();
  const after = rawAfter === '' ? null : decodeCursor(rawAfter);
  if (after === null && rawAfter !== '') throw new ApiError(400, `Invalid after: ${JSON.stringify(rawAfter)} (pass the after of the previous answer)`);

  const named = [...new Set((single(q, 'users') ?? '').split(',').map((u) => u.trim()).filter(Boolean))];
  if (named.length > MAX_USERS) throw new ApiError(400, `Invalid users: at most ${MAX_USERS} users per request`);
  if (principal.job !== undefined) throw new ApiError(403, 'Forbidden: usage statistics need an API key, not a job token');
  if (!principal.admin && named.some((u) => u !== principal.id)) throw new ApiError(403, `Forbidden: this key sees only its own usage (user ${principal.id})`);
  const users = named.length ? named : principal.admin ? null : [principal.id];

  return new ReadStatsQuery(users, bucketOf(start), end, groupBy, limit, after);
}
