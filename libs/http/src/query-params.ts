import type { FastifyRequest } from 'fastify';

/** Query parameters as the storage API reads them: a repeated name keeps every value. */
export type Query = Record<string, string | string[] | undefined>;

export function queryOf(req: FastifyRequest): Query {
  return (req.query ?? {}) as Query;
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
