import type { FastifyRequest } from 'fastify';
import { canAccessProject, Principal } from '@crawlhub/access';
import { Actor } from '@crawlhub/contracts';
import { RequestPrincipal, StorageHttpError } from '@crawlhub/http';
import { parseId } from '@crawlhub/storage';

/** Parameters as the storage API reads them: a repeated name keeps every value. */
export type Query = Record<string, string | string[] | undefined>;

/** The key of a request (401 in the storage style without a valid one). */
export async function authenticate(principals: RequestPrincipal, req: FastifyRequest): Promise<Principal> {
  const principal = await principals.of(req);
  if (!principal) throw StorageHttpError.unauthorized();
  return principal;
}

/** Authenticates a request and checks the key may see `project` (401 / 403). */
export async function authorizeProject(principals: RequestPrincipal, req: FastifyRequest, project: number): Promise<Principal> {
  const principal = await authenticate(principals, req);
  if (!canAccessProject(principal, project)) throw StorageHttpError.forbidden();
  return principal;
}

export function actorOf(p: Principal): Actor {
  return { kind: 'key', id: p.id };
}

/** A project id: anything but a non-negative integer is a 400. */
export function projectOf(segment: string | undefined): number {
  const id = parseId(segment);
  if (id === null) throw StorageHttpError.badRequest(`Invalid project id: ${JSON.stringify(segment ?? '')}`);
  return id;
}

export function queryOf(req: FastifyRequest): Query {
  return (req.query ?? {}) as Query;
}

export function single(q: Query, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

export function many(q: Query, name: string): string[] {
  const v = q[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** An optional non-negative count parameter (`count`, `pcount`). */
export function countOf(q: Query, name: string): number | undefined {
  const v = single(q, name);
  if (v === undefined) return undefined;
  if (!/^\d{1,9}$/.test(v)) throw StorageHttpError.badRequest(`Invalid ${name}: ${JSON.stringify(v)}`);
  return Number(v);
}
