import { decodeMulti } from '@msgpack/msgpack';
import type { Ctx, HostileRequest } from './case';
import { jl } from './payloads';
import type { WireAnswer } from './wire';

/**
 * The data written before any hostile case, and the reads that must answer the same at the
 * end of the suite: every family's witness data, job records in every read format
 * (json, jl, msgpack, csv, xml) at job and project level.
 */

export interface Seeded {
  /** Pending job of spider "witness". */
  pendingJob: string;
  /** Running job holding the witness items, logs, requests, samples and metadata. */
  runningJob: string;
  runningToken: string;
  finishedJob: string;
  finishedToken: string;
  /** A job of project 2 (the other tenant's) with items. */
  otherTenantJob: string;
  /** A proxy session of the project-1 key. */
  sessionId: string;
  commentId: number;
  scheduleId: string;
  /** The witness frontier slot's first batch. */
  batchId: string;
}

export const WITNESS_ITEMS = [
  { name: 'witness 1', price: 1.5, tags: ['a', 'é'], nested: { deep: { x: 1 } } },
  { name: 'witness 2', n: 12345678901, flag: true, none: null },
  { name: '日本語', emoji: '😀', quote: 'a "quoted", comma' },
];
const WITNESS_LOGS = [
  { time: 1700000000000, level: 20, message: 'witness started' },
  { time: 1700000000001, level: 40, message: 'witness error line' },
];
const WITNESS_REQUESTS = [{ time: 1700000000000, method: 'GET', url: 'http://example.invalid/', status: 200, duration: 5, rs: 100, fp: 'abc' }];
const WITNESS_SAMPLES = [[1700000000000, 1, 2]];
export const WITNESS_COLLECTION = [
  { _key: 'k1', value: 'v1' },
  { _key: 'k2', value: { x: [1, 2] } },
  { _key: 'é', value: 3 },
];

async function ok(ctx: Ctx, r: HostileRequest, what: string): Promise<WireAnswer> {
  const a = await ctx.send(r);
  if (a.status >= 300) throw new Error(`seeding ${what}: ${a.status} ${a.body.toString()}`);
  return a;
}
const json = <T>(a: WireAnswer): T => JSON.parse(a.body.toString()) as T;
const form = (fields: [string, string][]) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export async function seed(ctx: Ctx): Promise<Seeded> {
  const push = async (body: object) => json<{ key: string; auth: string | null }>(await ok(ctx, { api: 'storage', method: 'POST', target: '/jobq/1/push', body: JSON.stringify(body) }, 'a job push'));
  const pending = await push({ spider: 'witness' });
  const running = await push({ spider: 'running-witness', state: 'running' });
  const finished = await push({ spider: 'finished-witness', state: 'running' });
  await ok(ctx, { api: 'storage', method: 'POST', target: '/jobq/1/update', body: JSON.stringify({ key: finished.key, state: 'finished' }) }, 'finishing a job');
  const other = await json<{ key: string }>(await ok(ctx, { api: 'storage', method: 'POST', target: '/jobq/2/push', body: '{"spider":"other-tenant"}' }, 'a project-2 push'));

  const job = running.key;
  await ok(ctx, { api: 'storage', method: 'POST', target: `/items/${job}`, body: jl(...WITNESS_ITEMS) }, 'items');
  await ok(ctx, { api: 'storage', method: 'POST', target: `/logs/${job}`, body: jl(...WITNESS_LOGS) }, 'logs');
  await ok(ctx, { api: 'storage', method: 'POST', target: `/requests/${job}`, body: jl(...WITNESS_REQUESTS) }, 'requests');
  await ok(ctx, { api: 'storage', method: 'POST', target: `/samples/${job}`, body: jl(...WITNESS_SAMPLES) }, 'samples');
  await ok(ctx, { api: 'storage', method: 'POST', target: `/jobs/${job}`, body: '{"witness": "meta", "count": 3}' }, 'job metadata');
  await ok(ctx, { api: 'storage', method: 'POST', target: `/items/${other.key}`, body: jl({ tenant: 2, secret: 'project 2 only' }) }, 'project-2 items');
  await ok(ctx, { api: 'storage', method: 'POST', target: '/activity/1', body: jl({ event: 'witness', n: 1 }, { event: 'witness', n: 2 }) }, 'activity');
  await ok(ctx, { api: 'storage', method: 'POST', target: '/collections/1/s/witness', body: jl(...WITNESS_COLLECTION) }, 'a collection');
  await ok(ctx, { api: 'storage', method: 'POST', target: '/collections/1/vs/witnessv', body: jl({ _key: 'k', value: 1 }) }, 'a versioned collection');
  await ok(ctx, { api: 'storage', method: 'POST', target: '/collections/1/vs/witnessv', body: jl({ _key: 'k', value: 2 }) }, 'a second version');
  await ok(ctx, { api: 'storage', method: 'POST', target: '/hcf/1/witness/s/slot1', body: jl({ fp: 'fp1', qdata: { u: 1 } }, { fp: 'fp2', p: 3, fdata: 'f' }) }, 'frontier requests');
  const queue = (await ok(ctx, { api: 'storage', target: '/hcf/1/witness/s/slot1/q' }, 'the frontier queue')).body.toString();
  const batchId = (JSON.parse(queue.split('\n')[0]) as { id: string }).id;
  await ok(ctx, { api: 'storage', method: 'POST', target: '/projects/1/settings', body: '{"witness": true}' }, 'project settings');

  const comment = json<{ id: number }>(await ok(ctx, { api: 'dash', method: 'POST', target: `/api/comments/${job}/0`, headers: FORM, body: form([['text', 'witness comment']]) }, 'a comment'));
  const schedule = json<{ id: string }>(
    await ok(ctx, { api: 'dash', method: 'POST', target: '/api/schedules/add.json', headers: FORM, body: form([['project', '1'], ['spider', 'scheduled-witness'], ['cron', '0 0 1 1 *']]) }, 'a schedule'),
  );
  await ok(ctx, { api: 'dash', method: 'POST', target: '/api/run.json', headers: FORM, body: form([['project', '1'], ['spider', 'dash-witness'], ['add_tag', 'witness']]) }, 'run.json');
  const sessionId = (await ok(ctx, { api: 'proxy', method: 'POST', target: '/sessions', as: 'p1' }, 'a proxy session')).body.toString().trim();
  return {
    pendingJob: pending.key,
    runningJob: job,
    runningToken: running.auth!,
    finishedJob: finished.key,
    finishedToken: finished.auth!,
    otherTenantJob: other.key,
    sessionId,
    commentId: comment.id,
    scheduleId: schedule.id,
    batchId,
  };
}

export const READ_FORMATS = ['json', 'jl', 'msgpack', 'xml', 'csv'] as const;
const CSV_FIELDS: Record<string, string> = { items: 'name,price,tags,nested', logs: 'message,level,time', requests: 'url,status,fp', activity: 'event,n', collection: 'value' };

/** One read per format of a job-record path (csv with its fields; samples have none). */
export function inEveryFormat(path: string, kind: string): HostileRequest[] {
  return READ_FORMATS.filter((f) => f !== 'csv' || CSV_FIELDS[kind]).map((f) => ({
    api: 'storage' as const,
    target: `${path}${path.includes('?') ? '&' : '?'}format=${f}${f === 'csv' ? `&fields=${CSV_FIELDS[kind]}&include_headers=1` : ''}`,
  }));
}

/** The witness reads: compared with their answers right after seeding at the end of the suite, and before and after the cases that name them. */
export function witnessReads(s: Seeded): HostileRequest[] {
  const job = s.runningJob;
  return [
    ...['items', 'logs', 'requests', 'samples'].flatMap((k) => [...inEveryFormat(`/${k}/${job}`, k), { api: 'storage' as const, target: `/${k}/${job}/stats` }]),
    ...inEveryFormat('/items/1', 'items'),
    ...inEveryFormat(`/items/${s.otherTenantJob}`, 'items'),
    { api: 'storage', target: `/jobs/${job}` },
    { api: 'storage', target: `/jobs/${s.finishedJob}` },
    ...inEveryFormat('/activity/1', 'activity'),
    ...inEveryFormat('/collections/1/s/witness?meta=_key', 'collection'),
    { api: 'storage', target: '/collections/1/list' },
    { api: 'storage', target: '/collections/1/vs/witnessv/k/versions' },
    { api: 'storage', target: '/hcf/1/witness/s/slot1/q' },
    { api: 'storage', target: '/hcf/1/witness/s/slot1/f' },
    { api: 'storage', target: '/hcf/1/list' },
    { api: 'storage', target: '/projects/1/settings' },
    { api: 'storage', target: '/jobq/1/list?state=pending&state=running&state=finished' },
    { api: 'storage', target: '/jobq/2/list?state=pending&state=running&state=finished' },
    { api: 'dash', target: '/api/jobs/list.json?project=1' },
    { api: 'dash', target: '/api/spiders/list.json?project=1' },
    { api: 'dash', target: `/api/comments/${job}` },
    { api: 'dash', target: '/api/schedules/list.json?project=1' },
    { api: 'proxy', target: '/sessions', as: 'p1' },
  ];
}

/** What a read answered, in a form to compare: status and bytes, with the times that move by themselves left out. */
export function fingerprint(a: WireAnswer): string {
  const body = a.body.toString(a.headers['content-type']?.includes('msgpack') ? 'base64' : 'utf8');
  return `${a.status} ${body.replace(/"elapsed": ?\d+/g, '"elapsed":…').replace(/"next_run": ?"[^"]*"/g, '"next_run":…')}`;
}

/** Checks that the witness reads right after seeding show the seeded data (decoded, where the format allows). */
export function checkSeededReads(s: Seeded, answers: Map<string, WireAnswer>): string[] {
  const problems: string[] = [];
  for (const [target, a] of answers) if (a.status !== 200) problems.push(`${target}: ${a.status} ${a.body.toString().slice(0, 200)}`);
  const items = (f: string) => [...answers].find(([k]) => k.startsWith(`storage /items/${s.runningJob}?format=${f}`))![1];
  const names = WITNESS_ITEMS.map((i) => i.name);
  const fromJson = (JSON.parse(items('json').body.toString()) as { name: string }[]).map((i) => i.name);
  const fromJl = items('jl').body.toString().trim().split('\n').map((l) => (JSON.parse(l) as { name: string }).name);
  const fromMsgpack = [...decodeMulti(items('msgpack').body)].map((i) => (i as { name: string }).name);
  for (const [format, got] of [['json', fromJson], ['jl', fromJl], ['msgpack', fromMsgpack]] as const) {
    if (JSON.stringify(got) !== JSON.stringify(names)) problems.push(`witness items in ${format}: ${JSON.stringify(got)}`);
  }
  for (const name of names) {
    if (!items('xml').body.toString().includes(name)) problems.push(`witness items in xml lack ${name}`);
    if (!items('csv').body.toString().includes(name)) problems.push(`witness items in csv lack ${name}`);
  }
  return problems;
}
