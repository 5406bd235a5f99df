import type { FastifyRequest } from 'fastify';
import { decodeForm } from './form-body';
import { ApiError } from './api-error';

/** Query parameters as the storage API reads them: a repeated name keeps every value. */
export type Query = Record<string, string | string[] | undefined>;

/** Where parseQuery leaves the reason a query string could not be decoded, for queryOf to refuse it. */
const MALFORMED = Symbol('malformed query string');

/**
 * Fastify's `querystringParser` for every app (startHttpApp): the query string read by the
 * one strict form decoder (`decodeForm`), so `?new_name=%FF` is refused, not stored as
 * U+FFFD. It runs inside Fastify's router, where a throw would escape every error style:
 * a malformed query string gives an empty query that carries its reason, and queryOf (the
 * only way controllers read a query) refuses it with 400.
 */
export function parseQuery(text: string): Query {
  const query: Query = Object.create(null);
  try {
    for (const [name, value] of decodeForm(text)) {
      const before = query[name];
      query[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
    }
  } catch (e) {
    return Object.assign(Object.create(null) as Query, { [MALFORMED]: (e as Error).message });
  }
  return query;
}

/** The query parameters of a request; 400 when its query string could not be decoded (parseQuery). */
export function queryOf(req: FastifyRequest): Query {
  const query = (req.query ?? {}) as Query & { [MALFORMED]?: string };
  if (query[MALFORMED] !== undefined) throw ApiError.badRequest(query[MALFORMED].replace(/^malformed form/, 'malformed query string'));
  return query;
}

/** The last value of a parameter. */
export function single(q: Query, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

export function many(q: Query, name: string): string[] {
  const v = q[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** A flag parameter: present and not 0/false/no/n. */
export function flag(q: Query, name: string): boolean {
  return isFlagSet(single(q, name));
}

/**
 * Whether a flag's value turns it on: present and not 0/false/no/n, in any case (Python
 * clients send their booleans as `True` and `False`).
 */
export function isFlagSet(value: string | null | undefined): boolean {
  return value !== undefined && value !== null && !['0', 'false', 'no', 'n'].includes(value.toLowerCase());
}

const TRUE_WORDS = ['true', '1', 'yes', 'on'];
const FALSE_WORDS = ['false', '0', 'no', 'off'];

/**
 * A boolean parameter of a form or a JSON body, for the APIs that refuse what is neither
 * (fetch's `render`, a schedule's `enabled`): true/1/yes/on or false/0/no/off, in any
 * case; null for anything else (`maybe`), which the caller refuses with 400.
 */
export function parseBoolean(text: string): boolean | null {
  const word = text.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  return null;
}
