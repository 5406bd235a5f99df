import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canAccessProject, Principal } from '@crawlhub/access';
import { Actor } from '@crawlhub/contracts';
import { ApiError, formParams, MAX_ID, parseUnsignedInteger, RequestPrincipal } from '@crawlhub/http';
import { CommentTarget, commentTextProblem, StoredComment } from '../domain/comment';
import { FindCommentQuery } from '../queries/find-comment/find-comment.query';

/** The caller's key, or 401 in the dash style (no key, or a key that is not known). */
export async function principalOf(principals: RequestPrincipal, req: FastifyRequest): Promise<Principal> {
  const principal = await principals.of(req);
  if (!principal) throw new ApiError(401, 'Authentication failed');
  return principal;
}

/** 403 unless the key may see the project. */
export function authorizeProject(principal: Principal, project: number): void {
  if (!canAccessProject(principal, project)) throw new ApiError(403, `You do not have access to project ${project}`);
}

export function actorOf(p: Principal): Actor {
  return { kind: 'key', id: p.id };
}

/** A path id: anything but a non-negative integer is a 400 naming the part. */
export function idOf(segment: string | undefined, what: string): number {
  const id = parseUnsignedInteger(segment, MAX_ID);
  if (id === null) throw new ApiError(400, `Invalid ${what}: ${JSON.stringify(segment ?? '')}`);
  return id;
}

function jobIds(p: Record<string, string>): { project: number; spider: number; job: number } {
  return { project: idOf(p.project, 'project id'), spider: idOf(p.spider, 'spider id'), job: idOf(p.job, 'job id') };
}

/** The job of a comments route: path ids (400), then the project check (403). */
export function jobOf(p: Record<string, string>, principal: Principal): { project: number; spider: number; job: number } {
  const job = jobIds(p);
  authorizeProject(principal, job.project);
  return job;
}

/** The item or field of a comments route: path ids (400), then the project check (403). */
export function targetOf(p: Record<string, string>, principal: Principal): CommentTarget {
  const job = jobIds(p);
  const item = idOf(p.item, 'item number');
  if (p.field === '') throw new ApiError(400, 'Invalid field name: ""');
  authorizeProject(principal, job.project);
  return { ...job, item, field: p.field ?? null };
}

/** The form parameter `text` (query string or form-encoded body), 400 when missing, blank or too long. */
export async function textOf(req: FastifyRequest): Promise<string> {
  const text = (await formParams(req)).get('text');
  const problem = commentTextProblem(text);
  if (problem) throw new ApiError(400, problem);
  return text!;
}

export function sendJson(reply: FastifyReply, body: string) {
  return reply.status(200).header('content-type', 'application/json').send(body);
}

/**
 * The comment a PUT or DELETE /comments/<id> acts on: 400 for a bad id, 404 when there
 * is none, 403 when the key may not see its project or is not its author (`editable`).
 */
export async function ownComment(queries: QueryBus, principal: Principal, segment: string, action: 'edit' | 'delete'): Promise<StoredComment> {
  const id = idOf(segment, 'comment id');
  const comment = await queries.execute<FindCommentQuery, StoredComment | null>(new FindCommentQuery(id));
  if (!comment) throw new ApiError(404, `Comment ${id} not found`);
  authorizeProject(principal, comment.project);
  if (comment.author !== principal.id) throw new ApiError(403, `Only the author of comment ${id} can ${action} it`);
  return comment;
}
