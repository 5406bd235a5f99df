import type { FastifyReply, FastifyRequest } from 'fastify';
import { QueryBus } from '@nestjs/cqrs';
import { JobState, spiderNameProblem } from '@crawlhub/contracts';
import { ApiError, CLIENT_CHOSEN_ID, JsonTooDeepError, MAX_ID, parseJson, parseUnsignedInteger, pythonJson } from '@crawlhub/http';
import { JobRecordsView } from '@crawlhub/storage';
import { jobKeyProblem, jobStateProblem } from '../commands/shared/command-input';
import { JobDoc } from '../domain/job';
import { JobFilter } from '../ports/jobs.view';
import { GetSpiderQuery } from '../queries/get-spider/get-spider.query';
import { SpiderDoc } from '../domain/job';

/**
 * The request's Idempotency-Key header (run.json, jobq push), or null: a client that sends
 * the request again with the same key (after a 503, a cut connection) gets the first answer,
 * and no second job (docs/dash-api.md, "Sending a request again").
 */
export function idempotencyKeyOf(req: FastifyRequest): string | null {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return null;
  if (typeof key !== 'string' || !CLIENT_CHOSEN_ID.test(key)) throw new ApiError(400, 'Idempotency-Key must be 1 to 128 letters, digits, dots, underscores, colons or hyphens');
  return key;
}

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

/** A form parameter holding a JSON object (`job_settings`, `meta`, `settings`...): `{}` when absent or empty. */
export function jsonObject(text: string | null, name: string): Record<string, unknown> {
  if (text === null || text === '') return {};
  let v: unknown;
  try {
    v = parseJson(text);
  } catch (e) {
    throw new ApiError(400, `${name} must be a JSON object (malformed JSON${e instanceof JsonTooDeepError ? `: ${e.message}` : ''})`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new ApiError(400, `${name} must be a JSON object`);
  return v as Record<string, unknown>;
}

/** A spider name to create or schedule (the rule of every path: spiderNameProblem). */
export function spiderName(value: unknown): string {
  const problem = spiderNameProblem(value);
  if (problem) throw new ApiError(400, problem);
  return value as string;
}

export function states(values: string[]): JobState[] {
  for (const s of values) {
    const problem = jobStateProblem(s);
    if (problem) throw new ApiError(400, problem);
  }
  return values as JobState[];
}

/** A job key of `project` read from a request (a query parameter): the rule of the commands (jobKeyProblem). */
export function jobKey(value: string, project: number): string {
  const problem = jobKeyProblem(value, project);
  if (problem) throw new ApiError(400, problem);
  return value;
}

/** The filters shared by jobq list, count and summaries (spider by name, tags, time bounds). */
export async function jobFilter(queries: QueryBus, project: number, params: URLSearchParams, defaultStates: JobState[]): Promise<JobFilter> {
  const filter: JobFilter = { project, states: params.getAll('state').length ? states(params.getAll('state')) : defaultStates };
  const spiders = params.getAll('spider');
  if (spiders.length) {
    const ids: number[] = [];
    for (const name of spiders) {
      const s = await queries.execute<GetSpiderQuery, SpiderDoc | null>(new GetSpiderQuery(project, { name }));
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

/** What a job wrote, as the job lists count it: items, pages (requests), logs, and errors (log lines at ERROR or above). */
export interface JobRecordCounts {
  items: number;
  pages: number;
  logs: number;
  errors: number;
}

/** What each job of a page wrote (items, pages, logs, errors), read in one query for the page. */
export async function jobRecordCounts(records: JobRecordsView, jobs: JobDoc[]): Promise<Map<string, JobRecordCounts>> {
  const stats = await records.statsOfJobs(jobs.map((job) => ({ project: job.project, spider: job.spiderId, job: job.number })));
  return new Map(
    jobs.map((job) => {
      const { items, requests, logs } = stats.get(job.key) ?? {};
      const errors = Object.entries(logs?.counts ?? {}).reduce((a, [level, n]) => (Number(level) >= 40 ? a + n : a), 0);
      return [job.key, { items: items?.inputValues ?? 0, pages: requests?.inputValues ?? 0, logs: logs?.inputValues ?? 0, errors }];
    }),
  );
}

/** The metadata fields a JobQ entry carries besides key, state, elapsed, spider and ts (as the original's job summaries). */
const ENTRY_META = ['pending_time', 'running_time', 'finished_time', 'deleted_time', 'close_reason', 'version'];

/**
 * A JobQ listing entry (list, summary, lastjobsummary), as the original's job summaries:
 * key, state, elapsed, spider, ts, the time it entered each state so far, close_reason,
 * version and tags when it has them, and for a job that ran, what it wrote (items, pages,
 * logs, errors). With `jobmeta`: key, state, elapsed, ts and those fields only.
 */
export async function jobqEntries(records: JobRecordsView, jobs: JobDoc[], now: number, jobmeta: string[]): Promise<Record<string, unknown>[]> {
  if (jobmeta.length) {
    return jobs.map((job) => {
      const picked: Record<string, unknown> = { key: job.key, state: job.state, elapsed: Math.max(0, now - job.ts), ts: job.ts };
      for (const f of jobmeta) if (f !== 'key' && job.meta[f] !== undefined) picked[f] = job.meta[f];
      return picked;
    });
  }
  const counts = await jobRecordCounts(records, jobs.filter((job) => job.meta.running_time !== undefined));
  return jobs.map((job) => {
    const entry: Record<string, unknown> = { key: job.key, state: job.state, elapsed: Math.max(0, now - job.ts), spider: job.spider, ts: job.ts };
    for (const f of ENTRY_META) if (job.meta[f] !== undefined) entry[f] = job.meta[f];
    entry[`${job.state}_time`] ??= job.ts;
    if (job.tags.length) entry.tags = job.tags;
    const written = counts.get(job.key);
    if (written) Object.assign(entry, written);
    return entry;
  });
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
