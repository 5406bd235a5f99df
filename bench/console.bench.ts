import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { keyIdOf } from '@crawlhub/access';
import { loadConfig } from '@crawlhub/config';
import { createEvent, eventProblem, JOBS_TOPIC, jobsRequestedType, JobsRequested, ManualClock, systemIds } from '@crawlhub/contracts';
import { openEventLog } from '@crawlhub/eventlog';
import { PushJobCommand } from '@crawlhub/jobs';
import type { JobRecordStats } from '@crawlhub/wire';
import { BENCH_AUTH, BENCH_KEY, httpCall, percentile, startPlatform } from './bench-support';
import { SPIDERS, TAGS } from './jobs.bench';

const TARGET_MS = 300;
const PAGE = 50;
const RUNS = 30;
/** A case's runs stop after this long (MIN_RUNS at least), so a slow store is measured in minutes, not hours. */
const SAMPLE_MS = 15_000;
const MIN_RUNS = 3;
const ITEMS_PER_POST = 10_000;
/** Push requests per append to the log (one transaction each). */
const REQUESTS_PER_APPEND = 5_000;
/** The seeded jobs were pushed one a minute, the last one at the seed's time. */
const PUSH_EVERY_MS = 60_000;
/** What the seed appended to the log of a data dir, so a kept dir is measured again as it is. */
const SEED_FILE = 'console-bench-seed.json';

interface Seed {
  jobs: number;
  /** The push time of the first job, ms. */
  firstAt: number;
}

interface Lane {
  name: string;
  env: Record<string, string>;
  /** The bare store reads of the same rows as the pages measured, on this lane's view store. */
  openBaselines: (dataDir: string) => Promise<Baselines>;
}

interface Baselines {
  jobsPage: () => Promise<unknown>;
  /** Page and total of spider + state + tag. */
  combined: (spiderId: number, state: string, tag: string) => Promise<unknown>;
  itemsPage: () => Promise<unknown>;
  close: () => Promise<void>;
}

/**
 * `npm run bench console`: what the web console's two biggest pages ask of the server. The
 * first page (50 rows) of the jobs list of a project with `jobs` jobs (dash jobs/list.json
 * with its filters, and JobQ's list), and of the items of a job with `items` items, each
 * timed over HTTP on loopback (the server's time plus a keep-alive round trip, whose floor
 * GET /system/ts shows), next to a bare read of the same rows from the same view store in
 * the same run, with the 300 ms target. On the embedded default, and with `mongodbUri` also
 * with the views in MongoDB (its own database), both folded from the same log.
 *
 * Seeding: the jobs go to the log as the push requests jobq/push appends (built by the
 * API's own PushJobCommand), `REQUESTS_PER_APPEND` per append while the platform is down;
 * the platform's jobs decider then decides them (a batch per fold) as it would decide
 * pushes that arrived together. The items are POSTed to the storage API. A kept data dir
 * (`dataDir`) is seeded once: the log holds the jobs, and the items POST resumes at the
 * job's count.
 */
export async function consoleBench(options: { jobs: number; items: number; dataDir?: string; mongodbUri?: string }): Promise<void> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'crawlhub-console-bench-'));
  mkdirSync(dataDir, { recursive: true });
  const lanes: Lane[] = [{ name: 'embedded (SQLite views)', env: { EVENT_LOG: 'sqlite', VIEW_STORE: 'sqlite' }, openBaselines: sqliteBaselines }];
  // The kept data dir's own database: its views are measured again as they are, like the SQLite file.
  const mongoDatabase = `bench_console_${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
  if (options.mongodbUri) lanes.push({ name: `VIEW_STORE=mongodb (database ${mongoDatabase})`, env: { EVENT_LOG: 'sqlite', VIEW_STORE: 'mongodb', MONGODB_URI: options.mongodbUri, MONGODB_DATABASE: mongoDatabase }, openBaselines: () => mongoBaselines(options.mongodbUri!, mongoDatabase) });
  else console.log('  MONGODB_URI not set: the MongoDB views lane is skipped');
  try {
    const seed = await appendJobRequests(dataDir, options.jobs);
    for (const lane of lanes) {
      console.log(`  lane ${lane.name}`);
      const platform = await startPlatform(lane.env, { dataDir });
      try {
        await viewsSeeded(platform, options);
        await measure(platform, seed, options, await lane.openBaselines(platform.dataDir));
      } finally {
        await platform.stop();
      }
    }
  } finally {
    if (options.dataDir === undefined) {
      rmSync(dataDir, { recursive: true, force: true });
      if (options.mongodbUri) await withMongo(options.mongodbUri, (client) => client.db(mongoDatabase).dropDatabase());
    }
  }
}

/** Appends the push requests of `jobs` jobs to the log of `dataDir` (platform down), unless a seed did. */
async function appendJobRequests(dataDir: string, jobs: number): Promise<Seed> {
  const seedFile = join(dataDir, SEED_FILE);
  if (existsSync(seedFile)) {
    const seed = JSON.parse(readFileSync(seedFile, 'utf8')) as Seed;
    if (seed.jobs !== jobs) throw new Error(`${dataDir} holds ${seed.jobs} seeded jobs, not ${jobs} (another BENCH_SCALE): use another BENCH_CONSOLE_DATA_DIR`);
    console.log(`  the log in ${dataDir} holds the ${jobs.toLocaleString('en-US')} jobs seeded before`);
    return seed;
  }
  const log = openEventLog(loadConfig({ ...process.env, EVENT_LOG: 'sqlite', DATA_DIR: dataDir }));
  try {
    await log.ensureTopics([JOBS_TOPIC]);
    const appended = (await log.endOffsets(JOBS_TOPIC)).reduce((a, b) => a + b, 0);
    if (appended > 0) throw new Error(`${dataDir} has jobs in its log but no ${SEED_FILE} (a seed was interrupted): remove the directory and run again`);
    const seed: Seed = { jobs, firstAt: Date.now() - jobs * PUSH_EVERY_MS };
    const by = keyIdOf(BENCH_KEY);
    const t0 = performance.now();
    for (let from = 0; from < jobs; from += REQUESTS_PER_APPEND) {
      const events = [];
      for (let i = from; i < Math.min(jobs, from + REQUESTS_PER_APPEND); i++) {
        const body = {
          spider: SPIDERS[i % SPIDERS.length],
          state: i % 10 === 0 ? 'pending' : i % 10 === 1 ? 'running' : 'finished',
          tags: [TAGS[i % TAGS.length], TAGS[(i * 7) % TAGS.length]],
          priority: i % 5,
        };
        const data: JobsRequested = { requestId: `console-bench-${i}`, project: 1, request: new PushJobCommand(1, { ...body, by }, { kind: 'key', id: by }).request };
        const event = createEvent({ type: jobsRequestedType('push'), key: '1', data, actor: { kind: 'key', id: by } }, { clock: new ManualClock(seed.firstAt + i * PUSH_EVERY_MS), ids: systemIds });
        const problem = eventProblem(JOBS_TOPIC, event);
        if (problem !== null) throw new Error(`the seed's push request is malformed: ${problem}`);
        events.push(event);
      }
      await log.append(JOBS_TOPIC, events);
    }
    writeFileSync(seedFile, JSON.stringify(seed));
    console.log(`  appended ${jobs.toLocaleString('en-US')} push requests (5 spiders, mixed states and tags) to the log in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return seed;
  } finally {
    await log.close();
  }
}

type Platform = Awaited<ReturnType<typeof startPlatform>>;

/** Until the views show every seeded job and item, POSTing the items the log does not hold yet; with progress. */
async function viewsSeeded(platform: Platform, options: { jobs: number; items: number }): Promise<void> {
  await progress(`jobs decided and folded`, options.jobs, async () => (await getJson<{ total: number }>(`${platform.dashUrl}/jobs/count.json?project=1`)).total);
  const itemCount = async () => (await getJson<JobRecordStats>(`${platform.url}/items/1/1/1/stats`)).totals.input_values;
  // A POST is applied whole or not at all: an interrupted seed resumes at the count.
  const have = await itemCount();
  if (have < options.items) {
    console.log(`  POSTing ${(options.items - have).toLocaleString('en-US')} items into job 1/1/1 (${ITEMS_PER_POST.toLocaleString('en-US')} a POST)`);
    const t0 = performance.now();
    for (let from = have; from < options.items; from += ITEMS_PER_POST) {
      const n = Math.min(ITEMS_PER_POST, options.items - from);
      const body = Array.from({ length: n }, (_, i) => JSON.stringify({ name: `item ${from + i}`, price: (from + i) / 100, url: `http://127.0.0.1/p/${from + i}` })).join('\n') + '\n';
      const res = await httpCall(`${platform.url}/items/1/1/1?start=${from}`, 'POST', { authorization: BENCH_AUTH }, Buffer.from(body));
      if (res.status !== 200) throw new Error(`items POST answered ${res.status}: ${res.text}`);
      if ((from + n) % 100_000 === 0 || from + n === options.items) console.log(`    ${(from + n).toLocaleString('en-US')} items, ${((from + n - have) / ((performance.now() - t0) / 1000)).toFixed(0)}/s`);
    }
  }
  await progress('items folded', options.items, itemCount);
}

/** Polls `count` until it reaches `target`, printing it every few seconds; fails if it stops moving for a minute. */
async function progress(what: string, target: number, count: () => Promise<number>): Promise<void> {
  const t0 = performance.now();
  let last = -1;
  let movedAt = t0;
  for (;;) {
    const n = await count();
    const seconds = (performance.now() - t0) / 1000;
    if (n >= target) {
      if (seconds > 1) console.log(`    ${what}: ${n.toLocaleString('en-US')} in ${seconds.toFixed(0)} s`);
      return;
    }
    if (n !== last) movedAt = performance.now();
    else if (performance.now() - movedAt > 60_000) throw new Error(`${what}: stuck at ${n} of ${target}`);
    if (last >= 0) console.log(`    ${what}: ${n.toLocaleString('en-US')} of ${target.toLocaleString('en-US')} (${seconds.toFixed(0)} s)`);
    last = n;
    await new Promise((r) => setTimeout(r, 5000));
  }
}

async function getJson<T>(url: string): Promise<T> {
  const res = await httpCall(url, 'GET', { authorization: BENCH_AUTH }, undefined, true);
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${res.text}`);
  return JSON.parse(res.text ?? '{}') as T;
}

async function measure(platform: Platform, seed: Seed, options: { jobs: number; items: number }, baselines: Baselines): Promise<void> {
  try {
    const middle = seed.firstAt + Math.floor(options.jobs / 2) * PUSH_EVERY_MS;
    const get = (url: string) => async () => {
      const res = await httpCall(url, 'GET', { authorization: BENCH_AUTH });
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${res.text}`);
    };
    const floor = await sample(get(`${platform.url}/system/ts`));
    console.log(`    HTTP floor (GET /system/ts, keep-alive loopback): p50 ${percentile(floor, 50).toFixed(2)} ms`);

    const dash = `${platform.dashUrl}/jobs/list.json?project=1&count=${PAGE}`;
    await compare(`jobs list, ${options.jobs.toLocaleString('en-US')} jobs`, { name: 'bare page of the same jobs', run: baselines.jobsPage }, [
      ['dash jobs/list.json (with total)', get(dash)],
      ['  spider=gamma', get(`${dash}&spider=gamma`)],
      ['  state=running', get(`${dash}&state=running`)],
      ['  has_tag=vip', get(`${dash}&has_tag=vip`)],
      ['  startts..endts (newer half)', get(`${dash}&startts=${middle}&endts=${Date.now() + 60_000}`)],
      ['JobQ jobq/1/list (finished)', get(`${platform.url}/jobq/1/list?count=${PAGE}`)],
    ]);
    // Spiders are numbered in the order of their first push: beta is 2.
    const beta = SPIDERS.indexOf('beta') + 1;
    await compare('jobs list, combined filters', { name: 'bare page and total of the same filters', run: () => baselines.combined(beta, 'finished', 'retry') }, [
      ['dash jobs/list.json spider=beta&state=finished&has_tag=retry (with total)', get(`${dash}&spider=beta&state=finished&has_tag=retry`)],
    ]);

    const items = `${platform.url}/items/1/1/1?count=${PAGE}&meta=_key&format=json`;
    await compare(`items of a job with ${options.items.toLocaleString('en-US')} items`, { name: 'bare page of the same items', run: baselines.itemsPage }, [
      ['items first page (json, meta=_key)', get(items)],
      ['  a page near the end (start=…)', get(`${items}&start=1/1/1/${Math.max(0, options.items - 1000)}`)],
      ['  job stats (the page header)', get(`${platform.url}/items/1/1/1/stats`)],
    ]);
  } finally {
    await baselines.close();
  }
}

async function sqliteBaselines(dataDir: string): Promise<Baselines> {
  const views = new Database(join(dataDir, 'views.db'), { readonly: true });
  const jobsPage = views.prepare('SELECT doc FROM jobs WHERE project = 1 ORDER BY ts DESC, ord DESC LIMIT ?');
  const combinedPage = views.prepare(
    `SELECT doc FROM jobs WHERE project = 1 AND spider_id = ? AND state = ? AND EXISTS (SELECT 1 FROM job_tag_listing t WHERE t.project = 1 AND t.tag = ? AND t.key = jobs.key) ORDER BY ts DESC, ord DESC LIMIT ?`,
  );
  const combinedTotal = views.prepare(`SELECT COUNT(DISTINCT key) AS n FROM job_tag_listing WHERE project = 1 AND tag = ? AND spider_id = ? AND state = ?`);
  const itemsPage = views.prepare('SELECT data FROM job_records WHERE kind = 0 AND project = 1 AND spider = 1 AND job = 1 ORDER BY pos LIMIT ?');
  return {
    jobsPage: async () => jobsPage.all(PAGE),
    combined: async (spiderId, state, tag) => [combinedPage.all(spiderId, state, tag, PAGE), combinedTotal.get(tag, spiderId, state)],
    itemsPage: async () => itemsPage.all(PAGE),
    close: async () => void views.close(),
  };
}

async function mongoBaselines(uri: string, database: string): Promise<Baselines> {
  const client = await new MongoClient(uri, { directConnection: true }).connect();
  const db = client.db(database);
  const newestFirst = { ts: -1, order: -1 } as const;
  return {
    jobsPage: () => db.collection('jobs').find({ project: 1 }, { projection: { d: 1 } }).sort(newestFirst).limit(PAGE).toArray(),
    combined: (spiderId, state, tag) => {
      const filter = { project: 1, spiderId, state, tags: tag };
      return Promise.all([db.collection('jobs').find(filter, { projection: { d: 1 } }).sort(newestFirst).limit(PAGE).toArray(), db.collection('jobs').countDocuments(filter)]);
    },
    // Job 1/1/1 holds the only records: the first of them in key order.
    itemsPage: () => db.collection('job_records').find({}, { projection: { d: 1 } }).sort({ _id: 1 }).limit(PAGE).toArray(),
    close: () => client.close(),
  };
}

async function withMongo(uri: string, use: (client: MongoClient) => Promise<unknown>): Promise<void> {
  const client = await new MongoClient(uri, { directConnection: true }).connect();
  try {
    await use(client);
  } finally {
    await client.close();
  }
}

async function compare(title: string, baseline: { name: string; run: () => Promise<unknown> }, cases: [string, () => Promise<unknown>][]): Promise<void> {
  const base = percentile(await sample(baseline.run), 50);
  console.log(`    ${title}: first page of ${PAGE}, up to ${RUNS} runs each; baseline ${baseline.name}: p50 ${base.toFixed(2)} ms`);
  for (const [name, call] of cases) {
    const lat = await sample(call);
    const p50 = percentile(lat, 50);
    const p95 = percentile(lat, 95);
    console.log(
      `      ${name}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms${lat.length < RUNS ? ` (${lat.length} runs)` : ''}; ${(p50 / base).toFixed(1)}x the baseline; target p95 < ${TARGET_MS} ms: ${p95 < TARGET_MS ? 'met' : 'NOT met'}`,
    );
  }
}

/** Latencies (ms, sorted) of RUNS calls one after another, or of fewer (MIN_RUNS at least) when they take longer than SAMPLE_MS together (a slow store). */
async function sample(call: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  const t0 = performance.now();
  while (out.length < RUNS && (out.length < MIN_RUNS || performance.now() - t0 < SAMPLE_MS)) {
    const t = performance.now();
    await call();
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}
