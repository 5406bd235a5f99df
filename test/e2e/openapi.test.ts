import { INestApplication } from '@nestjs/common';
import { AddressInfo } from 'node:net';
import { registeredRoutes } from '@crawlhub/platform';
import { startStorageApp } from '../../apps/storage/storage.app';
import { startDashApp } from '../../apps/dash/dash.app';
import { startFetchApp } from '../../apps/fetch/fetch.app';
import { startExtractApp } from '../../apps/extract/extract.app';
import { startStatsApp } from '../../apps/proxy/stats.app';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';
import { sample, scrape } from '../support/metrics';

type Operation = { operationId: string };
type OpenApi = { openapi: string; info: { title: string }; paths: Record<string, Record<string, Operation>> };

/** Values for the path parameters of the documented routes: enough for the router to match them. */
const PARAMETER_VALUES: Record<string, string> = { project: '1', spider: '1', job: '1', kind: 'items', type: 's', item: '0' };

/**
 * /openapi.json on each API port against the running server: every route the router has is
 * documented (method and path), and every documented operation is routed (it answers, never
 * 405, and the metrics count it under its own route template, not as unmatched).
 */
describe('OpenAPI descriptions of every API', () => {
  let platform: TestPlatform;
  const apps: Record<string, INestApplication> = {};

  beforeAll(async () => {
    platform = await startTestPlatform({ FETCH_PORT: '0', EXTRACT_PORT: '0', STATS_PORT: '0' });
    // The apps of the test platform (storage, dash) are started again here, to reach their routers.
    apps.storage = await startStorageApp(platform.core, ['error']);
    apps.dash = await startDashApp(platform.core, ['error']);
    apps.fetch = await startFetchApp(platform.core, ['error']);
    apps.extract = await startExtractApp(platform.core, ['error']);
    apps.stats = await startStatsApp(platform.core, ['error']);
  }, 120_000);

  afterAll(async () => {
    for (const app of Object.values(apps)) await app.close();
    await platform?.stop();
  });

  const baseOf = (app: INestApplication) => `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;

  it.each(['storage', 'dash', 'fetch', 'extract', 'stats'])('%s: documents every route its router has, and every documented route answers', async (api) => {
    const app = apps[api];
    const base = baseOf(app);
    const res = await fetch(`${base}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as OpenApi;
    expect(doc.openapi).toMatch(/^3\./);

    const routes = registeredRoutes(app).filter((r) => r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(5);
    const undocumented = routes.filter((r) => doc.paths[r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[r.method.toLowerCase()] === undefined);
    expect(undocumented).toEqual([]);

    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ path, method: method.toUpperCase() })));
    const before = await scrape(base, platform.adminKey);
    const answers: { path: string; method: string; status: number }[] = [];
    for (const { path, method } of operations) {
      const url = path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => PARAMETER_VALUES[name] ?? 'x');
      const answer = await fetch(`${base}${url}`, { method, headers: { Authorization: basic(platform.adminKey) }, body: method === 'GET' || method === 'HEAD' ? undefined : '', signal: AbortSignal.timeout(20_000) });
      // An event stream (the storage API's …/events) stays open by design: its status is the answer.
      if (answer.headers.get('content-type')?.startsWith('text/event-stream')) await answer.body?.cancel();
      else await answer.arrayBuffer();
      answers.push({ path, method, status: answer.status });
    }
    expect(answers.filter((a) => a.status === 405 || a.status >= 500)).toEqual([]);
    const after = await scrape(base, platform.adminKey);
    const unrouted = operations.filter(({ path, method }) => {
      if (['/healthz', '/readyz', '/metrics', '/openapi.json', '/openapi'].includes(path)) return false;
      const labels = { api, method, route: path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1') };
      return sample(after, 'crawlhub_http_requests_total', labels) - sample(before, 'crawlhub_http_requests_total', labels) < 1;
    });
    expect(unrouted).toEqual([]);
  }, 120_000);

  it('renders the description on a page of the same port, loading nothing from other hosts', async () => {
    const page = await fetch(`${baseOf(apps.storage)}/openapi`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain("fetch('openapi.json')");
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });
});
