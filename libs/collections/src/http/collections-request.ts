import type { FastifyReply, FastifyRequest } from 'fastify';
import { Principal } from '@crawlhub/access';
import { CollectionRef, storageNameProblem } from '@crawlhub/contracts';
import { ApiError, flag, many, MAX_ID, parseId, parseUnsignedInteger, Query, queryOf, RequestPrincipal, single } from '@crawlhub/http';
import { collectionTypeOf } from '../domain/collection-record';
import { ScanSelection } from '../domain/scan-plan';

/** The project of a collections route (400 when not an id), once the key may see it (401 / 403). */
export async function authorizedProject(principals: RequestPrincipal, req: FastifyRequest, segment: string): Promise<{ project: number; principal: Principal }> {
  const project = parseId(segment);
  if (project === null) throw ApiError.badRequest(`Invalid project id: ${JSON.stringify(segment)}`);
  return { project, principal: await principals.authorize(req, project) };
}

/** A collection name (the one rule for the names the storage API keeps: storageNameProblem); `what` says which one, in the message. */
export function checkName(name: string | undefined, what = 'collection'): string {
  const problem = storageNameProblem(name, what);
  if (problem) throw ApiError.badRequest(problem);
  return name!;
}

/** The collection of a `/collections/<p>/<type>/<name>...` route: an unknown type is a 404, a bad name a 400. */
export async function authorizedCollection(
  principals: RequestPrincipal,
  req: FastifyRequest,
  p: Record<string, string>,
): Promise<{ ref: CollectionRef; principal: Principal }> {
  const { project, principal } = await authorizedProject(principals, req, p.project);
  const type = collectionTypeOf(p.type);
  if (type === null) throw ApiError.notFound();
  return { ref: { project, type, name: checkName(p.name) }, principal };
}

/** Write answers (compat §1.1): 200, empty `text/plain; charset=UTF-8`. */
export function sendWritten(reply: FastifyReply) {
  return reply.status(200).header('content-type', 'text/plain; charset=UTF-8').header('access-control-allow-origin', '*').send('');
}

/** A JSON object answer without a trailing newline (count, delete). */
export function sendJson(reply: FastifyReply, status: number, body: string) {
  return reply.status(status).header('content-type', 'application/json; charset=UTF-8').header('access-control-allow-origin', '*').send(body);
}

/** A missing record (compat §1.3): 404 `Not Found\n` with no Content-Type header. */
export function sendNotFound(reply: FastifyReply) {
  reply.hijack();
  reply.raw.writeHead(404, { 'content-length': '10', 'access-control-allow-origin': '*' });
  reply.raw.end('Not Found\n');
  return reply;
}

function nonNegative(q: Query, name: string): number | undefined {
  const v = single(q, name);
  if (v === undefined) return undefined;
  const n = parseUnsignedInteger(v, MAX_ID);
  if (n === null) throw ApiError.badRequest(`Invalid ${name}: ${JSON.stringify(v)}`);
  return n;
}

/** Key selection, time bounds, filters and page size of a scan, count or delete (query parameters). */
export interface ScanParams {
  selection: ScanSelection;
  startts?: number;
  endts?: number;
  filters: string[];
  count?: number;
}

export function scanParamsOf(req: FastifyRequest): ScanParams {
  const q = queryOf(req);
  const prefixcount = nonNegative(q, 'prefixcount');
  return {
    selection: {
      keys: many(q, 'key'),
      prefixes: many(q, 'prefix'),
      prefixcount,
      start: single(q, 'start'),
      startafter: single(q, 'startafter'),
    },
    startts: nonNegative(q, 'startts'),
    endts: nonNegative(q, 'endts'),
    filters: many(q, 'filter'),
    count: nonNegative(q, 'count'),
  };
}

const META = ['_key', '_ts'];

/** `meta=_key|_ts` (others are a 400) and `nodata`. */
export function metaOf(req: FastifyRequest): { key: boolean; ts: boolean; nodata: boolean } {
  const q = queryOf(req);
  const meta = many(q, 'meta');
  for (const m of meta) if (!META.includes(m)) throw ApiError.badRequest(`Invalid meta field: ${JSON.stringify(m)} (known: ${META.join(', ')})`);
  return { key: meta.includes('_key'), ts: meta.includes('_ts'), nodata: flag(q, 'nodata') };
}
