import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startTestPlatform, TestPlatform } from '../support/platform';
import { QUOTES, quotesAuthorSlug as slug, startQuotesSite } from '../support/quotes-site';
import { client } from '../support/runner-helpers';
import { describeIf, needs } from '../support/skip';

jest.setTimeout(120_000);

/**
 * A real Scrapy spider (examples/spiders/scrapy-quotes) run by the runner through
 * sh_scrapy (`scrapinghub-entrypoint-scrapy`, the original platform's own entry point:
 * `start-crawl` reads SHUB_JOB_DATA / SHUB_SETTINGS, runs `scrapy crawl`, and writes the
 * FIFO line protocol itself). test/compat/scrapy-env.sh installs both into a venv and
 * prints SCRAPY_PYTHON.
 */
const PYTHON = process.env.SCRAPY_PYTHON ?? '';
const PROJECT_DIR = join(__dirname, '../../examples/spiders/scrapy-quotes');

describeIf(needs.scrapy)('runner: a real Scrapy spider through sh_scrapy', () => {
  const START_CRAWL = join(dirname(PYTHON), 'start-crawl');
  let p: TestPlatform;
  let site: Awaited<ReturnType<typeof startQuotesSite>>;
  let c: ReturnType<typeof client>;

  beforeAll(async () => {
    expect(existsSync(START_CRAWL)).toBe(true);
    site = await startQuotesSite();
    p = await startTestPlatform({ RUNNER_POLL_MS: '100', RUNNER_STOP_GRACE_MS: '5000' }, { runner: { id: 'runner-scrapy', units: 4 } });
    c = client(p, p.adminKey);
    await c.register(1, 'quotes', [START_CRAWL], { cwd: PROJECT_DIR });
  }, 60_000);
  afterAll(async () => {
    await p?.stop();
    await site?.close();
  });

  it('runs `start-crawl` from run.json: items, requests, logs, scrapystats and close_reason finished', async () => {
    const key = await c.run(1, 'quotes', { start_url: `${site.url}/` });
    const meta = await c.waitFor(key, undefined, 90_000);
    const logs = await c.lines(`/logs/${key}`);
    const messages = logs.map((l) => l.message as string);
    if (meta.close_reason !== 'finished' || process.env.DEBUG_SCRAPY) console.log(logs.map((l) => `${l.level} ${l.message}`).join('\n'));
    expect(meta).toMatchObject({ state: 'finished', close_reason: 'finished', started_by: 'jobrunner', completed_by: 'jobrunner', _runner: 'runner-scrapy' });

    // Items, as sh_scrapy's extension exports them (`_type` is the item class).
    const items = await c.lines(`/items/${key}`);
    const expected = Object.entries(QUOTES).flatMap(([n, qs]) => qs.map((q) => ({ ...q, url: `${site.url}/page/${n}/`, _type: 'Quote' })));
    const byText = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.text).localeCompare(String(b.text));
    expect([...items].sort(byText)).toEqual([...expected].sort(byText));

    // Requests: every page on the host once (the 404 too), the off-site link and robots.txt never.
    const requests = await c.lines(`/requests/${key}?meta=_key`);
    const paths = requests.map((r) => new URL(r.url as string).pathname);
    const authors = [...new Set(Object.values(QUOTES).flat().map((q) => `/author/${slug(q.author)}/`))];
    expect([...paths].sort()).toEqual(['/', '/page/1/', '/page/2/', '/page/3/', '/missing', ...authors].sort());
    expect(requests[0]).toMatchObject({ _key: `${key}/0`, url: `${site.url}/`, status: 200, method: 'GET' });
    expect(requests[0].parent).toBeUndefined();
    requests.slice(1).forEach((r, i) => {
      // sh_scrapy numbers requests in the order it writes them: a parent is an earlier request.
      expect(typeof r.parent).toBe('number');
      expect(r.parent as number).toBeLessThanOrEqual(i);
      expect(typeof r.fp).toBe('string');
      expect(typeof r.rs).toBe('number');
      expect(typeof r.duration).toBe('number');
    });
    expect(requests.find((r) => r.status === 404)).toMatchObject({ url: `${site.url}/missing` });
    expect(site.hits).not.toContain('/robots.txt');
    expect(site.hits).not.toContain('/elsewhere');

    // Logs: the runner's header, Scrapy's own lines through sh_scrapy's log handler, the exit code.
    expect(messages[0]).toMatch(/^\[crawlhub runner\] runner runner-scrapy starts job /);
    expect(messages.some((m) => m.startsWith('[scrapy.core.engine] Spider opened'))).toBe(true);
    expect(messages.some((m) => m.startsWith('[scrapy.core.engine] Closing spider (finished)'))).toBe(true);
    expect(messages.some((m) => m.startsWith('[scrapy.statscollectors] Dumping Scrapy stats'))).toBe(true);
    expect(messages[messages.length - 1]).toBe("[crawlhub runner] the job's process exited with code 0");
    expect(logs.every((l) => typeof l.time === 'number' && typeof l.level === 'number')).toBe(true);
    expect(logs.filter((l) => (l.level as number) >= 40)).toEqual([]);
    // sh_scrapy's JOBDIR went to the job's own TMPDIR, removed with the job.
    const jobdir = /'JOBDIR': '([^']+)'/.exec(messages.find((m) => m.includes("'JOBDIR'")) ?? '')?.[1];
    expect(jobdir).toMatch(/\/crawlhub-runner-runner-scrapy\/job-1-1-1-\w+\/tmp\/jobdata-/);
    expect(existsSync(jobdir!)).toBe(false);

    // scrapystats: the STA lines of sh_scrapy's stats collector (the last one, at close).
    const stats = meta.scrapystats as Record<string, unknown>;
    expect(stats).toMatchObject({
      item_scraped_count: 6,
      response_received_count: paths.length,
      'downloader/response_status_count/200': paths.length - 1,
      'downloader/response_status_count/404': 1,
      finish_reason: 'finished',
    });
    expect(typeof stats.start_time).toBe('number'); // datetimes serialized as epoch milliseconds
  });

  it('passes job_settings to Scrapy (SHUB_SETTINGS): CLOSESPIDER_ITEMCOUNT ends the job with that close reason', async () => {
    const key = await c.run(1, 'quotes', { start_url: `${site.url}/slow/1`, job_settings: JSON.stringify({ CLOSESPIDER_ITEMCOUNT: 2 }) });
    const meta = await c.waitFor(key, undefined, 90_000);
    expect(meta.close_reason).toBe('closespider_itemcount');
    const items = await c.lines(`/items/${key}`);
    expect(items.length).toBeGreaterThanOrEqual(2);
    expect((meta.scrapystats as Record<string, unknown>).finish_reason).toBe('closespider_itemcount');
  });

  it('stops it on stop.json: Scrapy shuts down on SIGTERM and the job finishes as cancelled', async () => {
    const key = await c.run(1, 'quotes', { start_url: `${site.url}/slow/1`, marker: 'stop' });
    await c.waitFor(key, (m) => m.state === 'running');
    for (const deadline = Date.now() + 60_000; (await c.lines(`/items/${key}`)).length < 2 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 100));
    expect((await c.lines(`/items/${key}`)).length).toBeGreaterThanOrEqual(2);
    expect((await c.dash('/jobs/stop.json', { project: '1', job: key })).body).toEqual({ status: 'ok' });
    const meta = await c.waitFor(key, undefined, 30_000);
    expect(meta.close_reason).toBe('cancelled');
    const messages = (await c.lines(`/logs/${key}`)).map((l) => l.message as string);
    expect(messages.some((m) => m.includes('Received SIGTERM, shutting down gracefully'))).toBe(true);
    expect(messages.some((m) => m.includes('after SIGTERM: sending SIGKILL'))).toBe(false);
    // Scrapy closed the spider itself (FIN shutdown, its last stats); the runner records the stop as cancelled.
    expect((meta.scrapystats as Record<string, unknown>).finish_reason).toBe('shutdown');
  });
});
