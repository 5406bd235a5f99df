import { INestApplication } from '@nestjs/common';
import { globalAgent } from 'node:http';
import { AddressInfo } from 'node:net';
import { EXTRACTION_COMPLETED, EXTRACTION_RESULTS_TOPIC, ExtractionCompleted } from '@crawlhub/contracts';
import type { QueryResult } from '@crawlhub/extraction-batches';
import { startExtractApp } from '../../apps/extract/extract.app';
import { ExtractionSite, SITE_ARTICLE, startExtractionSite } from '../../bench/extraction-site';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';
import { SpawnedPlatform } from '../support/spawn-platform';
import { FLEET_EXITS as EXITS, loggedEvents, startWorkerFleet, WorkerFleet } from '../support/worker-fleet';

/**
 * The extraction fleet: two extraction worker processes (the built platform, APP_ROLE=worker,
 * WORKER_KINDS=extract, the engine on a worker thread each) in one consumer group, sharing
 * this process's event log, each downloading through a proxy of its own with an exit of
 * its own, so the site tells which worker fetched what. `npm run build` first.
 */
describe('extraction API: the worker fleet', () => {
  let platform: TestPlatform;
  let site: ExtractionSite;
  let app: INestApplication;
  let apiUrl: string;
  let key: string;
  let fleet: WorkerFleet;
  let workers: SpawnedPlatform[];

  async function extract(urls: string[]): Promise<QueryResult[]> {
    const res = await fetch(`${apiUrl}/v1/extract`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic(key) },
      body: JSON.stringify(urls.map((url, i) => ({ url, pageType: 'article', meta: String(i) }))),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as QueryResult[];
  }
  const fetchedBy = (exit: string, path: string) => site.arrivals.filter((a) => a.remote === exit && a.path === path);

  const completed = () => loggedEvents<ExtractionCompleted>(platform.core.eventLog, EXTRACTION_RESULTS_TOPIC, EXTRACTION_COMPLETED);

  beforeAll(async () => {
    site = await startExtractionSite();
    platform = await startTestPlatform({
      PROXY_PORT: '0',
      EXTRACT_PORT: '0',
      ALLOW_PRIVATE_TARGETS: 'true',
      PROXY_THROTTLE_SPACING_MS: '0',
      // Room for a takeover: on Kafka a killed member's partitions move after its 10 s session timeout.
      EXTRACT_QUERY_TIMEOUT_MS: '45000',
    });
    key = await platform.createKey([1], ['extraction']);
    app = await startExtractApp(platform.core, ['error']);
    apiUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    fleet = await startWorkerFleet(platform, ['extractor-a', 'extractor-b'], { WORKER_KINDS: 'extract', WORKER_CONCURRENCY: '16', EXTRACT_THREADS: '1' });
    workers = fleet.workers;
  }, 120_000);

  afterAll(async () => {
    await fleet?.stop();
    await app?.close();
    await platform?.stop();
    await site?.close();
    globalAgent.destroy();
  }, 60_000);

  it('spreads a batch’s queries over both workers, each extracting on its engine thread', async () => {
    const until = Date.now() + 60_000;
    // Kafka may still be assigning the second member's partitions: batches until both took part.
    while (Date.now() < until && !EXITS.every((exit) => fetchedBy(exit, '/article').length > 0)) {
      const results = await extract(Array.from({ length: 12 }, (_, i) => `${site.url}/article?n=${i}`));
      expect(results.map((r) => r.article?.headline ?? r.error)).toEqual(Array(12).fill(SITE_ARTICLE.headline));
    }
    for (const exit of EXITS) expect(fetchedBy(exit, '/article').length).toBeGreaterThan(0);
  }, 90_000);

  it('answers every query of a batch when a worker is SIGKILLed while it holds some of them', async () => {
    const n = 12;
    const batch = extract(Array.from({ length: n }, (_, i) => `${site.url}/slow-article?ms=5000&n=${i}`));
    const slow = () => site.arrivals.filter((a) => a.path === '/slow-article');
    const until = Date.now() + 10_000;
    while (slow().length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(slow().length).toBeGreaterThanOrEqual(n);
    // The victim: the worker that fetched the latest of them, so it surely holds one unfinished.
    const last = (exit: string) => Math.max(0, ...fetchedBy(exit, '/slow-article').map((a) => a.at));
    const v = last(EXITS[0]) >= last(EXITS[1]) ? 0 : 1;
    const [victim, survivor] = [workers[v], workers[1 - v]];
    victim.kill('SIGKILL');
    await victim.waitExit();
    const results = await batch;
    expect(results.map((r) => r.article?.headline ?? r.error)).toEqual(Array(n).fill(SITE_ARTICLE.headline));
    // What the victim had downloaded but not finished (at least the latest: the site answers
    // 5 s after each arrival), the survivor did: its result is in the log.
    const targetOf = new Map(results.map((r) => [r.query.id, new URL(String(r.query.userQuery.url)).pathname + new URL(String(r.query.userQuery.url)).search]));
    const done = await completed();
    const by = (w: SpawnedPlatform) => new Set(done.filter((c) => c.worker.endsWith(`:${w.child.pid}`) && targetOf.has(c.id)).map((c) => targetOf.get(c.id)));
    const left = fetchedBy(EXITS[v], '/slow-article').map((a) => a.target).filter((t) => !by(victim).has(t));
    expect(left.length).toBeGreaterThan(0);
    for (const t of left) expect(by(survivor).has(t)).toBe(true);
  }, 90_000);
});
