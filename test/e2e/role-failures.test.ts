import { DynamicModule, INestApplication, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { globalAgent } from 'node:http';
import { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyIdOf } from '@crawlhub/access';
import {
  createEvent, EventEnvelope, EXTRACTION_REQUESTED, EXTRACTION_REQUESTS_TOPIC, EXTRACTION_RESULTS_TOPIC, ExtractionCompleted, ExtractionRequested, FETCH_REQUESTED,
  FETCH_REQUESTS_TOPIC, FETCH_RESULTS_TOPIC, FetchCompleted, FetchRequested, JOBS_TOPIC, jobsRequestedType, RENDER_REQUESTS_TOPIC, SCHEDULE_SET, SCHEDULES_TOPIC, ScheduleSet, Clock, systemClock,
} from '@crawlhub/contracts';
import { ExtractionWorkerModule } from '@crawlhub/extraction-batches';
import { partitionForKey } from '@crawlhub/eventlog';
import { FetchWorkerModule, PAGE_RENDERER, PageRenderer } from '@crawlhub/fetch';
import { Core, CoreModule } from '@crawlhub/platform';
import type { RenderRequest, RenderResult } from '@crawlhub/render';
import { EventWriter, ProjectionFailedError } from '@crawlhub/views';
import { startExtractApp } from '../../apps/extract/extract.app';
import { startFetchApp } from '../../apps/fetch/fetch.app';
import { startProxyApp, StartedProxy } from '../../apps/proxy/proxy.app';
import { ExtractionSite, startExtractionSite } from '../../bench/extraction-site';
import { basic, expectReplayKeepsReads, startTestPlatform, TestPlatform } from '../support/platform';
import { viaProxy } from '../support/proxy-client';
import { client, FIFO_PRELUDE, nodeScript } from '../support/runner-helpers';
import { freePort, MAIN, spawnPlatform, SpawnedPlatform } from '../support/spawn-platform';
import { systemStamps } from '../support/stamps';

jest.setTimeout(120_000);

const actor = { kind: 'system' as const, id: 'role-failures-test' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A URL as an older version (or another writer) could have put it in the log: not normalised, so Node's HTTP client throws on it. */
const RAW_PATH = '/日本';

/** A renderer whose result, for URLs with `/poison`, has no HTML: the worker's own code then throws on it. */
class ScriptedRenderer implements PageRenderer {
  async render(r: RenderRequest): Promise<RenderResult> {
    const html = r.url.includes('/poison') ? (undefined as unknown as string) : '<html><body>rendered</body></html>';
    return { status: 200, headers: { 'content-type': 'text/html' }, html, finalUrl: r.url };
  }
}

/** The worker role (every kind) with the scripted renderer in place of the browser pool. */
@Module({})
class ScriptedWorkerModule {
  static with(core: Core, proxyUrl: string): DynamicModule {
    const renderer = { provider: { provide: PAGE_RENDERER, useValue: new ScriptedRenderer() }, imports: [] };
    return { module: ScriptedWorkerModule, imports: [CoreModule.with(core), FetchWorkerModule.register({ proxyUrl, renderer }), ExtractionWorkerModule.register(proxyUrl)] };
  }
}

/**
 * No failure inside one role ends the process or holds up the others (issue 14, items 1
 * and 3): each test injects a failure into one role (a poison message for a consumer group,
 * a schedule the scheduler cannot fire), shows the failing request is answered, and that
 * the other requests, and the other roles, still are.
 */
describe('a failure inside one role: it is answered, and everything else goes on', () => {
  let platform: TestPlatform;
  let site: ExtractionSite;
  let proxy: StartedProxy;
  let worker: INestApplicationContext;
  let fetchApp: INestApplication;
  let extractApp: INestApplication;
  let key: string;
  let writer: EventWriter;

  const urlOf = (app: INestApplication) => `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;

  beforeAll(async () => {
    site = await startExtractionSite();
    platform = await startTestPlatform(
      {
        PROXY_PORT: '0',
        FETCH_PORT: '0',
        EXTRACT_PORT: '0',
        ALLOW_PRIVATE_TARGETS: 'true',
        PROXY_THROTTLE_SPACING_MS: '0',
        WORKER_KINDS: 'plain,render,extract',
        FETCH_DEADLINE_MS: '30000',
        EXTRACT_QUERY_TIMEOUT_MS: '30000',
        SCHEDULER_INTERVAL_MS: '3600000',
        RUNNER_POLL_MS: '100',
      },
      { runner: { id: 'runner-role-failures', units: 2 } },
    );
    key = await platform.createKey([1, 2, 3], ['browser', 'extraction']);
    proxy = await startProxyApp(platform.core, ['error']);
    worker = await NestFactory.createApplicationContext(ScriptedWorkerModule.with(platform.core, `http://127.0.0.1:${proxy.port}/`), { logger: ['error'] });
    fetchApp = await startFetchApp(platform.core, ['error']);
    extractApp = await startExtractApp(platform.core, ['error']);
    writer = new EventWriter(platform.core.eventLog, platform.core.projections, platform.core.config, platform.core.clock, platform.core.ids);
  }, 90_000);

  afterAll(async () => {
    for (const app of [extractApp, fetchApp, worker, proxy]) await app?.close();
    await platform?.stop();
    await site?.close();
    globalAgent.destroy();
  });

  /** `n` keys that the log puts in one partition of `topic` (so they meet in one batch). */
  function keysInOnePartition(topic: string, n: number, make: () => string): string[] {
    const partitions = platform.core.eventLog.partitionCount(topic);
    const first = make();
    const keys = [first];
    while (keys.length < n) {
      const k = make();
      if (partitionForKey(k, partitions) === partitionForKey(first, partitions)) keys.push(k);
    }
    return keys;
  }

  /** Every result event for each of `ids`, once each has at least one (they are never removed). */
  async function resultsOf<T>(topic: string, ids: string[], timeoutMs = 30_000): Promise<Map<string, T[]>> {
    const log = platform.core.eventLog;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ends = await log.endOffsets(topic);
      const events = (await Promise.all(ends.map((end, p) => log.read(topic, p, 0, end)))).flat().map((e) => e.event);
      const byId = new Map(ids.map((id) => [id, events.filter((e) => e.key === id).map((e) => e.data as T)]));
      if ([...byId.values()].every((r) => r.length > 0)) return byId;
      if (Date.now() > deadline) throw new Error(`no result for ${ids.filter((id) => !byId.get(id)!.length).join(', ')} in ${topic}`);
      await sleep(100);
    }
  }

  /** The other roles answer: storage, dash, the proxy (through a plain fetch) and the extraction API. */
  async function othersAnswer(): Promise<void> {
    const auth = { authorization: basic(key) };
    expect((await fetch(`${platform.storageUrl}/system/ts`)).status).toBe(200);
    expect((await fetch(`${platform.dashUrl}/jobs/list.json?project=1`, { headers: auth })).status).toBe(200);
    const fetched = await fetch(`${urlOf(fetchApp)}/fetch/v2`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ url: `${site.url}/status/200` }) });
    expect(await fetched.json()).toMatchObject({ proxy_status: 'success', original_status: 200 });
    const extracted = await fetch(`${urlOf(extractApp)}/v1/extract`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify([{ url: `${site.url}/product`, pageType: 'product' }]) });
    expect(((await extracted.json()) as { product?: unknown }[])[0].product).toBeDefined();
  }

  function fetchRequest(id: string, url: string, render = false): EventEnvelope<FetchRequested> {
    const data: FetchRequested = { id, user: keyIdOf(key), url, method: 'GET', headers: [], body: null, region: null, device: null, jobId: null, render, screenshot: false, deadline: Date.now() + 30_000 };
    return createEvent({ type: FETCH_REQUESTED, key: id, data, actor }, systemStamps);
  }

  it.each([
    ['plain fetchers (fetch-workers)', FETCH_REQUESTS_TOPIC, false, `${RAW_PATH}`],
    ['renderers (render-workers)', RENDER_REQUESTS_TOPIC, true, '/poison'],
  ])('%s: a request whose work throws is answered as failed and committed; the one beside it is done once', async (_group, topic, render, poisonPath) => {
    const [poisonId, goodId] = keysInOnePartition(topic, 2, randomUUID);
    await platform.core.eventLog.append(topic, [fetchRequest(poisonId, `${site.url}${poisonPath}`, render), fetchRequest(goodId, `${site.url}/status/200`, render)]);
    const results = await resultsOf<FetchCompleted>(FETCH_RESULTS_TOPIC, [poisonId, goodId]);
    expect(results.get(poisonId)).toEqual([expect.objectContaining({ proxyStatus: 'fail', error: expect.objectContaining({ code: 'unexpected', message: expect.stringContaining('The worker failed on this request') }) })]);
    expect(results.get(goodId)).toEqual([expect.objectContaining({ proxyStatus: 'success', originalStatus: 200 })]);
    // Committed: neither comes back (before, the batch was retried every 2 s and the good one fetched again each time).
    await sleep(3_000);
    const again = await resultsOf<FetchCompleted>(FETCH_RESULTS_TOPIC, [poisonId, goodId]);
    expect([again.get(poisonId)!.length, again.get(goodId)!.length]).toEqual([1, 1]);
    await othersAnswer();
  });

  it('extraction API: a URL with characters above U+00FF is fetched as a browser would, and its batch is answered at once', async () => {
    const started = Date.now();
    const res = await fetch(`${urlOf(extractApp)}/v1/extract`, {
      method: 'POST',
      headers: { authorization: basic(key), 'content-type': 'application/json' },
      body: JSON.stringify([{ url: `http://127.0.0.1:${new URL(site.url).port}${RAW_PATH}?q=ü`, pageType: 'article' }, { url: `${site.url}/article`, pageType: 'article' }]),
    });
    expect(res.status).toBe(200);
    const [odd, article] = (await res.json()) as { error?: string; article?: unknown }[];
    // The site answers 404 for that page: the query got the website's answer, not a timeout.
    expect(odd.error).toBe('Downloader error: http404');
    expect(article.article).toBeDefined();
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(site.arrivals.filter((a) => a.path === '/%E6%97%A5%E6%9C%AC').map((a) => a.target)).toEqual(['/%E6%97%A5%E6%9C%AC?q=%C3%BC']);
  });

  it('extraction workers (extraction-workers): a query whose work throws is answered with an internal error, not billed; the one beside it is done once', async () => {
    const makeId = () => `${Date.now()}-${randomBytes(8).toString('hex')}`;
    const [poisonId, goodId] = keysInOnePartition(EXTRACTION_REQUESTS_TOPIC, 2, makeId);
    const batch = randomUUID();
    const query = (id: string, url: string) => {
      const data: ExtractionRequested = { id, batch, user: keyIdOf(key), url, pageType: 'product', articleBodyRaw: false, deadline: Date.now() + 30_000 };
      return createEvent({ type: EXTRACTION_REQUESTED, key: id, data, actor }, systemStamps);
    };
    const productHits = site.hits.get('/product') ?? 0;
    await platform.core.eventLog.append(EXTRACTION_REQUESTS_TOPIC, [query(poisonId, `${site.url}${RAW_PATH}`), query(goodId, `${site.url}/product`)]);
    const results = await resultsOf<ExtractionCompleted>(EXTRACTION_RESULTS_TOPIC, [poisonId, goodId]);
    expect(results.get(poisonId)).toEqual([expect.objectContaining({ error: 'Extraction error: internal_error', billable: false, result: null })]);
    expect(results.get(goodId)).toEqual([expect.objectContaining({ error: null, billable: true, result: expect.objectContaining({ sku: expect.any(String) }) })]);
    await sleep(3_000);
    const again = await resultsOf<ExtractionCompleted>(EXTRACTION_RESULTS_TOPIC, [poisonId, goodId]);
    expect([again.get(poisonId)!.length, again.get(goodId)!.length]).toEqual([1, 1]);
    // Downloaded once: usage is not inflated by redoing the batch.
    expect((site.hits.get('/product') ?? 0) - productHits).toBe(1);
    await othersAnswer();
  });

  /** A jobs request with no request at all: what another version or writer could leave in the log (the EventWriter refuses to append it, so it goes to the log directly). */
  const poisonJobsRequest = (project: number) => createEvent({ type: jobsRequestedType('push'), key: String(project), data: { requestId: randomUUID(), project, request: null }, actor }, systemStamps);
  const appendPoisonAndWait = async (project: number) => writer.waitForViews(await platform.core.eventLog.append(JOBS_TOPIC, [poisonJobsRequest(project)]));

  it('the EventWriter refuses to append an event its topic\'s contract refuses, naming what is wrong', async () => {
    await expect(writer.append(JOBS_TOPIC, [poisonJobsRequest(3)])).rejects.toThrow(/malformed jobs\.push-requested event on jobs: bad request /);
  });

  it('projector: an event no projection can apply is recorded and skipped; its write fails, the ones after it apply, and a replay gives the same views', async () => {
    const auth = { authorization: basic(key) };
    const run = (spider: string) => fetch(`${platform.dashUrl}/run.json`, { method: 'POST', headers: auth, body: new URLSearchParams({ project: '3', spider }) });
    expect((await run('before-poison')).status).toBe(200);
    await expect(appendPoisonAndWait(3)).rejects.toThrow(ProjectionFailedError);
    const after = await run('after-poison');
    expect(after.status).toBe(200);
    expect(((await after.json()) as { jobid: string }).jobid).toBe('3/2/1');
    expect(await failuresRecorded(JOBS_TOPIC)).toBe(1);
    await expectReplayKeepsReads(platform, (job: string) => fetch(`${platform.storageUrl}/jobs/${job}`, { headers: auth }), ['3/1/1', '3/2/1'], { longerThan: 50 });
    expect(await failuresRecorded(JOBS_TOPIC)).toBe(1);
    await othersAnswer();
  });

  /** How many events of `topic` the view store recorded as skipped. */
  async function failuresRecorded(topic: string): Promise<number> {
    const views = platform.core.views;
    if (views.kind === 'sqlite') return (views.db.reader.prepare('SELECT COUNT(*) AS n FROM projection_failures WHERE topic = ?').get(topic) as { n: number }).n;
    return views.db.db.collection('projection_failures').countDocuments({ topic });
  }

  it('runner: a poison request among its project\'s jobs requests does not stop it claiming and running jobs', async () => {
    const c = client(platform, platform.adminKey);
    await c.register(2, 'writes-one', nodeScript(`${FIFO_PRELUDE}out('ITM',{n:1});`));
    await expect(appendPoisonAndWait(2)).rejects.toThrow(ProjectionFailedError);
    const job = await c.run(2, 'writes-one');
    expect(await c.waitFor(job)).toMatchObject({ state: 'finished', close_reason: 'finished' });
    expect(await c.lines(`/items/${job}`)).toEqual([{ n: 1 }]);
    await othersAnswer();
  });

  it('proxy: its usage accounting failing neither fails a request nor ends the process', async () => {
    let broken = true;
    const clock: Clock = {
      now: () => {
        if (broken) throw new Error('the usage clock failed');
        return Date.now();
      },
      every: (ms, fn) => systemClock.every(Math.min(ms, 50), fn),
    };
    const accountingDown = await startProxyApp(platform.core, ['error'], { clock });
    try {
      await sleep(200); // the sampling timer ran on the broken clock
      expect(await viaProxy(accountingDown.port, `${site.url}/status/200`, { key })).toMatchObject({ status: 200 });
      broken = false;
      expect(await viaProxy(accountingDown.port, `${site.url}/status/200`, { key })).toMatchObject({ status: 200 });
    } finally {
      await accountingDown.close();
    }
    await othersAnswer();
  });

  it('scheduler: a schedule that cannot fire is passed; the others fire', async () => {
    const schedule = (id: string, cron: string): EventEnvelope<ScheduleSet> =>
      createEvent({ type: SCHEDULE_SET, key: '1', data: { project: 1, id, spider: `periodic-${id}`, cron, priority: 2, units: 1, tags: [], spiderArgs: {}, enabled: true, by: 'test' }, actor }, systemStamps);
    // Written as an older version (or another writer) could have: the API refuses such a cron.
    await writer.appendAndWait(SCHEDULES_TOPIC, [schedule('a-broken', 'every minute'), schedule('b-working', '* * * * *')]);
    const fired = await platform.scheduler.tick(Date.now() + 120_000);
    expect(fired).toEqual([expect.stringMatching(/^1\/\d+\/\d+$/)]);
    await othersAnswer();
  });
});

/** The repository's chromium-headless-shell (test/run-tests.sh installs it), to show the next render tries again. */
describe('renderer: a browser that cannot start (the built platform, all roles in one process)', () => {
  const KEY = 'role-failures-admin-key-0001';
  let platform: SpawnedPlatform;
  let dataDir: string;
  const ports = { storage: 0, dash: 0, fetch: 0, proxy: 0, stats: 0 };

  beforeAll(async () => {
    expect(existsSync(MAIN)).toBe(true); // `npm run build` first (npm test does it)
    dataDir = mkdtempSync(join(tmpdir(), 'crawlhub-no-browser-'));
    for (const name of Object.keys(ports) as (keyof typeof ports)[]) ports[name] = await freePort();
    platform = await spawnPlatform({
      roles: 'storage,dash,proxy,fetch,worker,projector',
      env: {
        DATA_DIR: dataDir,
        EVENT_LOG_NAMESPACE: `nobrowser${Date.now().toString(36)}-`,
        MONGODB_DATABASE: `crawlhub_nobrowser${Date.now().toString(36)}`,
        CRAWLHUB_ADMIN_KEY: KEY,
        CHROMIUM_PATH: '/nonexistent/chromium',
        WORKER_KINDS: 'plain,render',
        STORAGE_PORT: String(ports.storage),
        DASH_PORT: String(ports.dash),
        FETCH_PORT: String(ports.fetch),
        PROXY_PORT: String(ports.proxy),
        STATS_PORT: String(ports.stats),
      },
    });
  });

  afterAll(async () => {
    await platform?.stop('SIGTERM', 10_000);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers each render request with a failure naming the cause, tries again at the next one, and every API keeps serving', async () => {
    const render = async () => {
      const res = await fetch(`http://127.0.0.1:${ports.fetch}/fetch/v2`, { method: 'POST', headers: { authorization: basic(KEY), 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://site.invalid/', render: true }) });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    for (let i = 0; i < 2; i++) {
      expect(await render()).toEqual({
        status: 200,
        json: expect.objectContaining({ proxy_status: 'fail', crawlera_error: 'render_error', body: expect.stringContaining('the browser could not start (/nonexistent/chromium)') }),
      });
    }
    expect(platform.exited()).toBe(false);
    // Logged once, not per render.
    expect(platform.output().match(/the browser could not start/g)).toHaveLength(1);
    const auth = { authorization: basic(KEY) };
    expect((await fetch(`http://127.0.0.1:${ports.storage}/system/ts`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${ports.dash}/api/jobs/list.json?project=1`, { headers: auth })).status).toBe(200);
    const plain = await fetch(`http://127.0.0.1:${ports.fetch}/fetch/v2`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://site.invalid/' }) });
    // The proxy answers (a name under .invalid does not exist): the plain fetcher and the proxy are up.
    expect(await plain.json()).toMatchObject({ proxy_status: 'fail', crawlera_error: 'nxdomain' });
  });
});
