import type { FastifyRequest } from 'fastify';
import { Principal } from '@crawlhub/access';
import { Actor } from '@crawlhub/contracts';
import { StorageHttpError } from '@crawlhub/http';
import { parseId } from '../domain/job-key';
import { RECORD_KINDS, RecordKind } from '../domain/record-kinds';

export function actorOf(p: Principal): Actor {
  return p.job === undefined ? { kind: 'key', id: p.id } : { kind: 'job', id: p.job };
}

export function kindOf(segment: string): RecordKind {
  if (!(RECORD_KINDS as readonly string[]).includes(segment)) throw StorageHttpError.notFound();
  return segment as RecordKind;
}

/** A path id: anything but a non-negative integer is a 400 naming the part. */
export function idOf(segment: string | undefined, what: string): number {
  const id = parseId(segment);
  if (id === null) throw StorageHttpError.badRequest(`Invalid ${what} id: ${JSON.stringify(segment ?? '')}`);
  return id;
}

export function queryOf(req: FastifyRequest): Record<string, string | string[] | undefined> {
  return (req.query ?? {}) as Record<string, string | string[] | undefined>;
}

export function single(q: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

export function many(q: Record<string, string | string[] | undefined>, name: string): string[] {
  const v = q[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

export function flag(q: Record<string, string | string[] | undefined>, name: string): boolean {
  const v = single(q, name);
  return v !== undefined && !['0', 'false', 'no', 'n'].includes(v.toLowerCase());
}
