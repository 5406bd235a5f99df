import type { FastifyReply, FastifyRequest } from 'fastify';
import { Principal } from '@crawlhub/access';
import { storageNameProblem } from '@crawlhub/contracts';
import { MAX_ID, parseUnsignedInteger, RequestPrincipal, ApiError } from '@crawlhub/http';
import { SlotRef } from '../ports/frontier.view';


export function projectOf(segment: string | undefined): number {
  const id = parseUnsignedInteger(segment, MAX_ID);
  if (id === null) throw ApiError.badRequest(`Invalid project id: ${JSON.stringify(segment ?? '')}`);
  return id;
}

/** A frontier or slot name (the one rule for the names the storage API keeps: storageNameProblem). */
export function nameOf(segment: string | undefined, what: 'frontier' | 'slot'): string {
  const problem = storageNameProblem(segment, what);
  if (problem) throw ApiError.badRequest(problem);
  return segment!;
}

/** The project of a frontier route, checked against the caller's key (401 / 403). */
export async function authorizedProject(principals: RequestPrincipal, req: FastifyRequest, p: Record<string, string>): Promise<{ project: number; principal: Principal }> {
  const project = projectOf(p.project);
  const principal = await principals.authorize(req, project);
  return { project, principal };
}

/** The slot of a `/hcf/<project>/<frontier>/s/<slot>...` route, after the key check. */
export async function authorizedSlot(principals: RequestPrincipal, req: FastifyRequest, p: Record<string, string>): Promise<{ slot: SlotRef; principal: Principal }> {
  const { project, principal } = await authorizedProject(principals, req, p);
  return { slot: { project, frontier: nameOf(p.frontier, 'frontier'), slot: nameOf(p.slot, 'slot') }, principal };
}

/** `application/json; charset=UTF-8`, as the original answers newcount, lists and counts. */
export function sendJson(reply: FastifyReply, body: string): FastifyReply {
  return reply.status(200).header('content-type', 'application/json; charset=UTF-8').header('access-control-allow-origin', '*').send(body);
}

/** 200 with an empty body and no content type (DELETE of a slot, POST q/deleted). */
export function sendEmpty(reply: FastifyReply): FastifyReply {
  return reply.status(200).header('access-control-allow-origin', '*').send();
}

/** An optional non-negative integer parameter (400 when malformed). */
export function intParam(value: string | undefined, name: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = parseUnsignedInteger(value, max);
  if (n === null) throw ApiError.badRequest(`Invalid ${name}: ${JSON.stringify(value)} (an integer from 0 to ${max})`);
  return n;
}
