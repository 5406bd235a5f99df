import type { FastifyReply } from 'fastify';
import { Principal } from '@crawlhub/access';
import { Actor } from '@crawlhub/contracts';
import { ApiError, JsonTooDeepError, parseJson } from '@crawlhub/http';
import { ProjectionLagError } from '@crawlhub/views';
import { SpiderCommandError } from '../domain/spider-command';

export function projectOf(value: string | null): number {
  if (value === null || !/^\d{1,15}$/.test(value)) throw new ApiError(400, `Invalid project id: ${JSON.stringify(value ?? '')}`);
  return Number(value);
}

export function actorOf(p: Principal): Actor {
  return { kind: 'key', id: p.id };
}

/** A JSON parameter (command, env): absent is undefined, malformed a 400. */
export function jsonParam(params: URLSearchParams, name: string): unknown {
  const text = params.get(name);
  if (text === null || text === '') return undefined;
  try {
    return parseJson(text);
  } catch (e) {
    throw new ApiError(400, `${name} must be JSON (malformed JSON${e instanceof JsonTooDeepError ? `: ${e.message}` : ''})`);
  }
}

/** Runs a write, answering its errors in the dash style. */
export async function dashWrite<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (e instanceof SpiderCommandError) throw new ApiError(400, e.message);
    if (e instanceof ProjectionLagError) throw ApiError.unavailable(e.message);
    throw e;
  }
}

export function sendDash(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.status(200).header('content-type', 'application/json').send(JSON.stringify(value));
}
