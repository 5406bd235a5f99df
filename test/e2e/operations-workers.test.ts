import { TargetPolicy } from '@crawlhub/net';
import { metricsRegistry } from '@crawlhub/ops';
import { startOpsServer } from '@crawlhub/platform';
import { RenderPool } from '@crawlhub/render';
import { RenderSite, startRenderSite } from '../../bench/render-site';
import { ExtractionStack, startExtractionStack } from '../support/extraction-stack';
import { hasSeries, sample, scrape } from '../support/metrics';
import { basic } from '../support/platform';
import { CHROMIUM, describeIf, needs } from '../support/skip';

/** The workers' metrics move with their work (docs/operations.md, Metrics): extraction on every lane, the render pool where a browser is installed. */
describe('extraction metrics', () => {
  let stack: ExtractionStack;
  let ops: Awaited<ReturnType<typeof startOpsServer>>;

  beforeAll(async () => {
    stack = await startExtractionStack();
    ops = await startOpsServer(stack.platform.core);
  }, 120_000);
  afterAll(async () => {
    await ops?.close();
    await stack?.close();
  });

  it('times each query\'s download and extraction, and shows the API\'s queue', async () => {
    const opsUrl = `http://127.0.0.1:${ops.port}`;
    const before = await scrape(opsUrl);
    const res = await fetch(`${stack.apiUrl}/v1/extract`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic(stack.platform.adminKey) },
      body: JSON.stringify([{ url: `${stack.site.url}/article`, pageType: 'article' }, { url: `${stack.site.url}/article?again`, pageType: 'article' }]),
    });
    expect(res.status).toBe(200);
    const answers = (await res.json()) as { article?: unknown; error?: string }[];
    expect(answers.filter((a) => a.article !== undefined)).toHaveLength(2);
    const after = await scrape(opsUrl);
    for (const phase of ['download', 'extract']) {
      const labels = { phase, outcome: 'ok' };
      expect({ phase, moved: sample(after, 'crawlhub_extraction_duration_seconds_count', labels) - sample(before, 'crawlhub_extraction_duration_seconds_count', labels) }).toEqual({ phase, moved: 2 });
    }
    // Nothing waits any more: the queue is back to empty, on the API and on the worker.
    expect(hasSeries(after, 'crawlhub_extraction_api_queries_in_flight')).toBe(true);
    expect(sample(after, 'crawlhub_extraction_api_queries_in_flight')).toBe(0);
    expect(sample(after, 'crawlhub_extraction_worker_queries_in_flight')).toBe(0);
    // The requests of the API itself, per route.
    const route = { api: 'extract', method: 'POST', route: '/v1/extract', status: '200' };
    expect(sample(after, 'crawlhub_http_requests_total', route) - sample(before, 'crawlhub_http_requests_total', route)).toBe(1);
  }, 60_000);
});

describeIf(needs.chromium)('render pool metrics', () => {
  let site: RenderSite;
  let pool: RenderPool;

  beforeAll(async () => {
    site = await startRenderSite();
    pool = await RenderPool.start({
      chromiumPath: CHROMIUM, concurrency: 2, queueLimit: 10, timeoutMs: 15_000, recyclePages: 1000, recycleRssMb: 4096, proxyUrl: null,
      targets: new TargetPolicy({ allowPrivate: true, allowed: [] }),
    });
  }, 60_000);
  afterAll(async () => {
    await pool?.close();
    await site?.close();
  });

  it('shows the browsers, the renders running and queued, and the browsers\' memory', async () => {
    const during = Promise.all([1, 2, 3, 4].map((i) => pool.render({ url: `${site.url}/slow?ms=1500&n=${i}` })));
    await new Promise((r) => setTimeout(r, 700));
    const busy = await metricsRegistry.metrics();
    expect(sample(busy, 'crawlhub_render_pool', { measure: 'running' })).toBe(2);
    expect(sample(busy, 'crawlhub_render_pool', { measure: 'queued' })).toBe(2);
    await during;
    const idle = await metricsRegistry.metrics();
    expect(sample(idle, 'crawlhub_render_pool', { measure: 'browsers' })).toBe(2);
    expect(sample(idle, 'crawlhub_render_pool', { measure: 'running' }) + sample(idle, 'crawlhub_render_pool', { measure: 'queued' })).toBe(0);
    expect(sample(idle, 'crawlhub_render_pool', { measure: 'browser_memory_bytes' })).toBeGreaterThan(10 * 1024 * 1024);
  }, 60_000);
});
