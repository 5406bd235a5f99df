import type { FastifyReply } from 'fastify';
import { hasCapability, Principal } from '@crawlhub/access';
import { ApiError } from '@crawlhub/http';

export function projectOf(value: string | null): number {
  if (value === null || !/^\d{1,15}$/.test(value)) throw new ApiError(400, `Invalid project id: ${JSON.stringify(value ?? '')}`);
  return Number(value);
}

/** A deploy puts code on the runners' machines: the key needs the `deploy` capability (admin keys have it). */
export function requireDeploy(principal: Principal): void {
  if (!hasCapability(principal, 'deploy')) throw new ApiError(403, 'This key cannot deploy: it needs the deploy capability (crawlhub keys grant <key-id> deploy)');
}

export function sendDash(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.status(200).header('content-type', 'application/json').send(JSON.stringify(value));
}
