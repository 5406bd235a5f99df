import type { FastifyReply, FastifyRequest } from 'fastify';
import { JOB_STATES, JobState, spiderNameProblem } from '@crawlhub/contracts';
import { ApiError, JsonTooDeepError, MAX_ID, parseJson, parseUnsignedInteger, pythonJson } from '@crawlhub/http';
import { platformFieldProblem } from '@crawlhub/storage';
import { JobDoc } from '../domain/job';
import { JobFilter, JobsView } from '../ports/jobs.view';

export function projectId(value: string | null | undefined): number {
  const id = parseUnsignedInteger(value, MAX_ID);
  if (id === null) throw new ApiError(400, `Invalid project id: ${JSON.stringify(value ?? '')}`);
  return id;
}

/** A form or query integer (digits only: `1e0`, `2.5` and ` 1` are refused alike), from min to max. */
export function integer(params: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const v = params.get(name);
  if (v === null || v === '') return fallback;
  const n = parseUnsignedInteger(v, max);
  if (n === null || n < min) throw new ApiError(400, `Invalid ${name}: ${JSON.stringify(v)} (an integer from ${min} to ${max})`);
  return n;
}

/** A JSON body integer (a JSON number without fraction; `1.0` is the number 1), from min to max. */
export function jsonInteger(body: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const v = body[name] ?? fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) throw new ApiError(400, `Invalid ${name}: ${JSON.stringify(v)} (an integer from ${min} to ${max})`);
  return v;
}

/** A JSON body field that is a list of strings (`tags`, `spiders`): [] when absent; a lone string or anything else is a 400. */
export function jsonStringList(body: Record<string, unknown>, name: string): string[] {
  const v = body[name];
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new ApiError(400, `Invalid ${name}: ${JSON.stringify(v).slice(0, 100)} (a list of strings)`);
  return v as string[];
}

/** A spider name to create or schedule (the rule of every path: spiderNameProblem). */
export function spiderName(value: unknown): string {
  const problem = spiderNameProblem(value);
  if (problem) throw new ApiError(400, problem);
  return value as string;
}

/** Metadata fields a client sends (its control parameters taken out): refused if one is the platform's. */
export function clientMetadata<T extends Record<string, unknown>>(fields: T): T {
  const problem = platformFieldProblem(Object.keys(fields));
  if (problem) throw new ApiError(400, problem);
  return fields;
}

export function states(values: string[]): JobState[] {
  for (const s of values) if (!(JOB_STATES as readonly string[]).includes(s)) throw new ApiError(400, `Invalid state: ${JSON.stringify(s)} (one of ${JOB_STATES.join(', ')})`);
  return values as JobState[];
}

const JOB_KEY = /^\d{1,15}\/\d{1,15}\/\d{1,15}$/;

export function jobKey(value: string, project: number): string {
  if (!JOB_KEY.test(value) || Number(value.split('/')[0]) !== project) throw new ApiError(400, `Invalid job key: ${JSON.stringify(value)} (expected ${project}/<spider>/<job>)`);
  return value;
}

/** The filters shared by jobq list, count and summaries (spider by name, tags, time bounds). */
export async function jobFilter(view: JobsView, project: number, params: URLSearchParams, defaultStates: JobState[]): Promise<JobFilter> {
  const filter: JobFilter = { project, states: params.getAll('state').length ? states(params.getAll('state')) : defaultStates };
  const spiders = params.getAll('spider');
  if (spiders.length) {
    const ids: number[] = [];
    for (const name of spiders) {
      const s = await view.spiderByName(project, name);
      if (s) ids.push(s.id);
    }
    filter.spiderIds = ids;
  }
  const startts = params.get('startts');
  const endts = params.get('endts');
  if (startts !== null) filter.startts = integer(params, 'startts', 0, 0, Number.MAX_SAFE_INTEGER);
  if (endts !== null) filter.endts = integer(params, 'endts', 0, 0, Number.MAX_SAFE_INTEGER);
  if (params.getAll('has_tag').length) filter.hasTags = params.getAll('has_tag');
  if (params.getAll('lacks_tag').length) filter.lacksTags = params.getAll('lacks_tag');
  if (params.getAll('key').length) filter.keys = params.getAll('key').map((k) => jobKey(k, project));
  return filter;
}

/** A JobQ listing entry: key, state, elapsed, spider, ts, `<state>_time`, and the `jobmeta` fields asked. */
export function jobqEntry(job: JobDoc, now: number, jobmeta: string[]): Record<string, unknown> {
  const timeField = `${job.state}_time`;
  const entry: Record<string, unknown> = { key: job.key, state: job.state, elapsed: Math.max(0, now - job.ts), spider: job.spider, ts: job.ts };
  if (jobmeta.length === 0) {
    entry[timeField] = job.meta[timeField] ?? job.ts;
    if (job.meta.close_reason !== undefined) entry.close_reason = job.meta.close_reason;
    return entry;
  }
  const picked: Record<string, unknown> = { key: job.key, state: job.state, elapsed: entry.elapsed, ts: job.ts };
  for (const f of jobmeta) if (f !== 'key' && job.meta[f] !== undefined) picked[f] = job.meta[f];
  return picked;
}

/** JobQ-service answers: Python-style JSON lines, no trailing newline, no charset. */
export function sendJobqLines(reply: FastifyReply, values: unknown[]): FastifyReply {
  return reply.status(200).header('content-type', 'application/x-jsonlines').send(values.map(pythonJson).join('\n'));
}

export function sendJobqJson(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.status(200).header('content-type', 'application/json').send(pythonJson(value));
}

/** Dash answers: compact JSON, 200. */
export function sendDash(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.status(200).header('content-type', 'application/json').send(JSON.stringify(value));
}

/** Bodies of JobQ writes: one JSON object, a JSON array, or JSON lines. */
export function jsonRecords(text: string): Record<string, unknown>[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const out: unknown[] = [];
  try {
    const whole = parseJson(trimmed);
    out.push(...(Array.isArray(whole) ? whole : [whole]));
  } catch (e) {
    if (e instanceof JsonTooDeepError) throw new ApiError(400, `malformed JSON: ${e.message}`);
    trimmed.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        out.push(parseJson(line));
      } catch (e) {
        throw new ApiError(400, `malformed JSON on line ${i + 1} (${(e as Error).message})`);
      }
    });
  }
  for (const o of out) if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new ApiError(400, 'each record must be a JSON object');
  return out as Record<string, unknown>[];
}
