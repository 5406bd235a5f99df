import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import puppeteer, { Browser, Page } from 'puppeteer-core';
import { randomBytes, randomUUID } from 'node:crypto';
import { keyIdOf } from '@crawlhub/access';
import {
  createEvent, DEPLOY_FAILED, ManualClock, DEPLOY_LOG, DEPLOY_REQUESTED, DEPLOYS_TOPIC, DeployFailed, DeployLog, DeployRequested, EXTRACTION_COMPLETED, EXTRACTION_RESULTS_TOPIC, ExtractionCompleted, FETCH_REQUESTED, FETCH_REQUESTS_TOPIC, FetchRequested, RENDER_REQUESTS_TOPIC,
} from '@crawlhub/contracts';
import { Core, CoreModule } from '@crawlhub/platform';
import { ProxyUsageRecorderModule, UsageRecorder } from '@crawlhub/proxy-stats';
import { CHROMIUM_FLAGS } from '@crawlhub/render';
import { EventWriter } from '@crawlhub/views';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';
import { client, NODE_CRAWLER } from '../support/runner-helpers';
import { startLoopbackSite, LoopbackSite } from '../support/loopback-site';
import { CHROMIUM, describeIf, needs } from '../support/skip';
import { systemStamps } from '../support/stamps';

jest.setTimeout(180_000);

// What the functions given to page.evaluate / waitForFunction use of the page's globals (they run in the browser).
declare const document: { querySelectorAll(selector: string): Iterable<{ innerText: string }> & { length: number }; querySelector(selector: string): unknown; cookie: string };
declare const location: { pathname: string };

const ROOT = join(__dirname, '../..');
const { buildConsole } = require('../../tools/build-console.js') as { buildConsole(root: string): { script: string } };

/**
 * Screenshots of the main pages: into docs/console/ with UPDATE_SCREENSHOTS=1 (what the
 * README links), else into this run's temporary folder (taken all the same: a page that
 * cannot be drawn fails the test).
 */
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs/console') : mkdtempSync(join(tmpdir(), 'console-shots-'));

/** A proxy process's usage recorder, alone in a Nest context (as the proxy app hosts it). */
@Module({})
class RecorderHostModule {
  static with(core: Core): DynamicModule {
    return { module: RecorderHostModule, imports: [CoreModule.with(core), ProxyUsageRecorderModule.register({ clock: new ManualClock(Date.now()) })] };
  }
}

describeIf(needs.chromium)('the web console, driven in headless Chromium', () => {
  let platform: TestPlatform;
  let site: LoopbackSite;
  let browser: Browser;
  let downloads: string;
  let projectKey: string;
  let otherKey: string;
  let recorderHost: INestApplicationContext;
  let url: string;
  let otherJob: string;

  beforeAll(async () => {
    // The console's bundle, as `npm run build` makes it (the dash app serves dist/console).
    buildConsole(ROOT);
    mkdirSync(SHOTS, { recursive: true });
    platform = await startTestPlatform({ RUNNER_POLL_MS: '100', RUNNER_STOP_GRACE_MS: '1000' }, { runner: { id: 'runner-console', units: 6 }, stats: true });
    url = platform.consoleUrl;
    site = await startLoopbackSite({ pages: 5, slowMs: 150 });
    projectKey = await platform.createKey([1]);
    otherKey = await platform.createKey([2]);
    const admin = client(platform, platform.adminKey);
    await admin.register(1, 'node-crawler', [process.execPath, NODE_CRAWLER]);
    await admin.register(2, 'node-crawler', [process.execPath, NODE_CRAWLER]);
    otherJob = await client(platform, otherKey).run(2, 'node-crawler', { start_url: `${site.url}/`, max_pages: '2' });
    downloads = mkdtempSync(join(tmpdir(), 'console-downloads-'));
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: 'shell',
      args: [...CHROMIUM_FLAGS, `--user-data-dir=${mkdtempSync(join(tmpdir(), 'console-chromium-'))}`],
      defaultViewport: { width: 1280, height: 800 },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await recorderHost?.close();
    await site?.close();
    await platform?.stop();
  });

  /** A page of a fresh browser context (its own cookies; downloads saved in `downloads`): signed in with `key` through the form, unless null. */
  async function signedInPage(key: string | null): Promise<Page> {
    const context = await browser.createBrowserContext({ downloadBehavior: { policy: 'allow', downloadPath: downloads } });
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(`${url}/`);
    if (key !== null) {
      await page.waitForSelector('input[name=apikey]');
      await page.type('input[name=apikey]', key);
      await page.click('button[type=submit]');
      await page.waitForSelector('header.top');
    }
    return page;
  }

  const textOf = (page: Page, selector: string) => page.$eval(selector, (el) => (el as { innerText: string }).innerText);
  const waitForText = (page: Page, selector: string, text: string | RegExp, timeout = 30_000) =>
    page.waitForFunction(
      (s: string, t: string, isRegex: boolean) => [...document.querySelectorAll(s)].some((el) => (isRegex ? new RegExp(t).test((el as { innerText: string }).innerText) : (el as { innerText: string }).innerText.includes(t))),
      { timeout },
      selector,
      text instanceof RegExp ? text.source : text,
      text instanceof RegExp,
    );
  const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) as `${string}.png` });

  it('signs in with an API key: an unknown key is refused, a project key sees its project only', async () => {
    const page = await signedInPage(null);
    await page.waitForSelector('input[name=apikey]');
    await shot(page, 'sign-in');
    await page.type('input[name=apikey]', 'f'.repeat(32));
    await page.click('button[type=submit]');
    await waitForText(page, '.error', 'Unknown API key');
    await page.$eval('input[name=apikey]', (el) => ((el as { value: string }).value = ''));
    await page.type('input[name=apikey]', projectKey);
    await page.click('button[type=submit]');
    await waitForText(page, '.cards', 'Project 1');
    expect(await textOf(page, '.cards')).not.toContain('Project 2');
    expect(await textOf(page, 'header.top')).toContain(keyIdOf(projectKey));
    // The session lives in an HttpOnly cookie: no script of the page can read it.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    await page.close();
  });

  it('opens the URL shub prints with ?apikey=, and takes the key out of the address', async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.goto(`${url}/p/${otherJob}?apikey=${otherKey}`);
    await page.waitForSelector('.job-head');
    expect(page.url()).toBe(`${url}/p/${otherJob}`);
    await context.close();
  });

  it('schedules the example spider, tails its log live while it runs, pages through its items and downloads them as CSV', async () => {
    const page = await signedInPage(projectKey);
    await page.goto(`${url}/p/1`);
    // The project page renders its buttons once its data has come: on a loaded machine, after the load event.
    await page.waitForSelector('button[name=open-schedule]');
    await page.click('button[name=open-schedule]');
    await page.waitForSelector('form.schedule input[name=spider]');
    await page.type('form.schedule input[name=spider]', 'node-crawler');
    // /slow/ pages take 150 ms each: the job runs for some 4 s, long enough to watch.
    await page.type('form.schedule input[name=args]', `start_url=${site.url}/slow/1 max_pages=25`);
    await page.type('form.schedule input[name=tags]', 'console');
    await page.click('form.schedule button[name=schedule]');
    await page.waitForFunction(() => /^\/p\/1\/\d+\/\d+$/.test(location.pathname));
    const jobKey = new URL(page.url()).pathname.slice(3);
    await waitForText(page, '.job-head', 'running');
    await page.click('button[name=tab-log]');
    await waitForText(page, '.live', 'live');
    // From the storage API's event stream, not the polling fallback.
    expect(await textOf(page, '.live')).not.toContain('polling');
    await page.waitForSelector('.log .line');
    const seenWhileRunning = await page.$$eval('.log .line', (lines) => lines.length);
    // New lines arrive in the open page while the job still runs: the tail is live.
    await page.waitForFunction((n: number) => document.querySelectorAll('.log .line').length > n + 3, { timeout: 30_000 }, seenWhileRunning);
    expect(await textOf(page, '[data-state]')).toBe('running');
    await shot(page, 'job-log-live');
    await waitForText(page, '[data-close-reason]', 'finished', 60_000);
    await waitForText(page, '.log', 'Spider closed');

    // Level filter: only errors and above (the crawler logs none here).
    await page.select('select[name=log-level]', '40');
    await waitForText(page, '.empty', 'No log line matches');
    await page.select('select[name=log-level]', '0');

    // Items: 25, twenty per page.
    await page.click('button[name=tab-items]');
    await page.waitForSelector('table.records tbody tr');
    expect(await page.$$eval('table.records tbody tr', (rows) => rows.length)).toBe(20);
    expect(await textOf(page, 'table.records thead')).toContain('url');
    await shot(page, 'job-items');
    await page.click('button[name=next-page]');
    await waitForText(page, '.pager', '21–25 of 25');
    expect(await page.$$eval('table.records tbody tr', (rows) => rows.length)).toBe(5);
    await page.click('table.records tbody tr');
    await waitForText(page, '.record-view', '"_type": "Page"');
    // Comments on the opened item's field: added through the dash API's comments, counted in its row.
    const item = (await textOf(page, '.record-view strong')).split('/')[3];
    await page.select('select[name=comment-target]', 'url');
    await page.type('input[name=comment-text]', 'wrong host?');
    await page.click('button[name=add-comment]');
    await waitForText(page, `.comment-target[data-target="${item}/url"]`, 'wrong host?');
    await page.waitForFunction(() => !!document.querySelector('td[data-notes="1"]'));
    const stored = await client(platform, projectKey).dash(`/comments/${jobKey}/${item}/url`);
    expect((stored.body as unknown as { text: string; author: string }[]).map((c) => [c.text, c.author])).toEqual([['wrong host?', keyIdOf(projectKey)]]);
    await shot(page, 'job-comments');
    await page.click('button[name=archive-comments]');
    await page.waitForSelector(`.comment-target[data-target="${item}/url"] li.archived`);

    await page.click('button[name=download-csv]');
    const file = `items-${jobKey.replace(/\//g, '-')}.csv`;
    await waitForText(page, '.progress', `Saved ${file}`);
    const deadline = Date.now() + 10_000;
    while (!readdirSync(downloads).includes(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const csv = readFileSync(join(downloads, file), 'utf8').trim().split('\r\n');
    expect(csv[0]).toBe('_type,url,status,title,links,size');
    expect(csv).toHaveLength(26);

    // On a phone. Switching to mobile emulation reloads the page (puppeteer's setViewport), so the
    // console is mounted again before its tabs can be clicked.
    await page.setViewport({ width: 390, height: 844, isMobile: true });
    // A click that lands while the reloaded console is still mounting is lost: click until the tab is the active one.
    await page.waitForFunction(() => {
      const tab = document.querySelector('button[name=tab-stats]') as { classList: { contains(c: string): boolean }; click(): void } | null;
      if (tab && !tab.classList.contains('active')) tab.click();
      return tab?.classList.contains('active');
    });
    await page.waitForSelector('table.kv');
    // Its rates over time: 25 items and as many requests, per minute of their storing.
    await page.waitForSelector('[data-chart="Per minute"] canvas');
    await shot(page, 'job-phone');
    await page.close();
  });

  it('lists the jobs newest first with filters, and stops a running job', async () => {
    const page = await signedInPage(projectKey);
    const jobKey = await client(platform, projectKey).run(1, 'node-crawler', { start_url: `${site.url}/slow/1`, max_pages: '10000' });
    await page.goto(`${url}/p/1`);
    await page.waitForSelector(`tr[data-job="${jobKey}"]`);
    expect(await page.$eval('table.jobs tbody tr', (row) => row.getAttribute('data-job'))).toBe(jobKey);
    await shot(page, 'jobs');
    await page.select('select[name=state]', 'finished');
    await page.waitForFunction((k: string) => !document.querySelector(`tr[data-job="${k}"]`) && document.querySelectorAll('table.jobs tbody tr').length > 0, {}, jobKey);
    // The time filter: the finished jobs all finished within the last hour.
    await page.select('select[name=since]', '3600000');
    await page.waitForFunction(() => document.querySelectorAll('table.jobs tbody tr').length > 0 && !document.querySelector('.reloading'));
    await page.select('select[name=state]', '');
    await page.goto(`${url}/p/${jobKey}`);
    await waitForText(page, '[data-state]', 'running');
    await page.click('button[name=stop-job]');
    await waitForText(page, '[data-close-reason]', /cancelled|shutdown|finished/, 30_000);
    expect(await textOf(page, '[data-state]')).toBe('finished');
    // Its history from the log: scheduled and stopped by this key, started and finished by the runner.
    await page.click('button[name=tab-history]');
    await page.waitForSelector('table.audit tbody tr');
    const history = await textOf(page, 'table.audit tbody');
    expect(history).toMatch(new RegExp(`key:${keyIdOf(projectKey)}\\s+push → pending`));
    expect(history).toMatch(new RegExp(`key:${keyIdOf(projectKey)}\\s+cancel`));
    expect(history).toMatch(/start → running/);
    await shot(page, 'job-history');
    await page.close();
  });

  it('creates, pauses and shows the next run of a periodic job', async () => {
    const page = await signedInPage(projectKey);
    await page.goto(`${url}/p/1/periodic`);
    await waitForText(page, '.empty', 'No periodic jobs');
    await page.click('button[name=new-schedule]');
    await page.type('form.schedule input[name=spider]', 'node-crawler');
    await page.$eval('form.schedule input[name=cron]', (el) => ((el as { value: string }).value = ''));
    await page.type('form.schedule input[name=cron]', '30 4 * * *');
    await page.type('form.schedule input[name=args]', `start_url=${site.url}/`);
    await page.click('form.schedule button[name=save-schedule]');
    await waitForText(page, 'table.schedules', '30 4 * * *');
    expect(await textOf(page, 'table.schedules tbody')).toMatch(/04:30:00 UTC/);
    await shot(page, 'periodic');
    await page.click('table.schedules button[name=pause]');
    await waitForText(page, 'table.schedules', 'paused');
    const listed = await client(platform, projectKey).dash('/schedules/list.json?project=1');
    expect((listed.body.schedules as { enabled: boolean }[])[0].enabled).toBe(false);
    await page.close();
  });

  it('browses a collection: key-prefix search, one record, delete', async () => {
    const write = await fetch(`${platform.storageUrl}/collections/1/s/shops`, {
      method: 'POST',
      headers: { authorization: basic(projectKey) },
      body: ['apple', 'apricot', 'banana'].map((k) => JSON.stringify({ _key: k, value: `${k} stall` })).join('\n'),
    });
    expect(write.status).toBe(200);
    const page = await signedInPage(projectKey);
    await page.goto(`${url}/p/1/collections`);
    await waitForText(page, '.cards', 'shops');
    await page.click('.cards a');
    await page.waitForSelector('tr[data-key=banana]');
    await page.type('input[name=key-prefix]', 'ap');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !document.querySelector('tr[data-key=banana]') && document.querySelectorAll('table.records tbody tr').length === 2);
    await page.click('tr[data-key=apricot] button.link');
    await waitForText(page, '.record-view', 'apricot stall');
    await shot(page, 'collection');
    page.once('dialog', (d) => void d.accept());
    await page.click('tr[data-key=apple] button[name=delete-record]');
    await page.waitForFunction(() => !document.querySelector('tr[data-key=apple]'));
    expect((await fetch(`${platform.storageUrl}/collections/1/s/shops/apple`, { headers: { authorization: basic(projectKey) } })).status).toBe(404);
    await page.close();
  });

  it('charts the proxy usage of the key over time', async () => {
    recorderHost = await NestFactory.createApplicationContext(RecorderHostModule.with(platform.core), { logger: ['error'] });
    const recorder = recorderHost.get(UsageRecorder);
    const user = keyIdOf(projectKey);
    for (let i = 0; i < 5; i++) {
      recorder.started(user);
      recorder.finished({ user, outcome: i === 0 ? 'failed' : 'clean', bytes: 2000, timeMs: 120 });
    }
    expect(await platform.core.projections.waitFor(await recorder.flush(), 20_000)).toBe(true);
    const page = await signedInPage(projectKey);
    await page.goto(`${url}/usage`);
    await waitForText(page, 'section', '4 clean and 1 failed requests');
    await page.waitForSelector('[data-chart=Requests] canvas');
    await shot(page, 'usage');
    await page.close();
  });

  it('charts the fetch and extraction usage of the key over time, apart from the proxy\'s; the admin key sees every key\'s', async () => {
    const own = keyIdOf(projectKey);
    const other = keyIdOf(otherKey);
    const actor = { kind: 'system' as const, id: 'test' };
    const fetchRequest = (user: string, render: boolean) => {
      const id = randomUUID();
      return createEvent({ type: FETCH_REQUESTED, key: id, actor, data: { id, user, url: `${site.url}/`, method: 'GET', headers: [], body: null, region: null, device: null, jobId: null, render, screenshot: false, deadline: Date.now() + 60_000 } satisfies FetchRequested }, systemStamps);
    };
    const query = (user: string, error: string | null) => {
      const id = `${Date.now()}-${randomBytes(8).toString('hex')}`;
      return createEvent({ type: EXTRACTION_COMPLETED, key: id, actor, data: { id, batch: randomUUID(), user, worker: 'w', pageType: 'article', result: error ? null : { url: site.url }, error, billable: true, downloadMs: 1, extractMs: 1 } satisfies ExtractionCompleted }, systemStamps);
    };
    const log = platform.core.eventLog;
    await log.ensureTopics([FETCH_REQUESTS_TOPIC, RENDER_REQUESTS_TOPIC, EXTRACTION_RESULTS_TOPIC]);
    await log.append(FETCH_REQUESTS_TOPIC, [fetchRequest(own, false), fetchRequest(own, false), fetchRequest(other, false)]);
    await log.append(RENDER_REQUESTS_TOPIC, [fetchRequest(own, true)]);
    await log.append(EXTRACTION_RESULTS_TOPIC, [query(own, null), query(own, 'Downloader error: http404'), query(other, null)]);

    const page = await signedInPage(projectKey);
    await page.goto(`${url}/usage`);
    await waitForText(page, '[data-totals=fetch]', '2 fetches, 1 renders');
    await waitForText(page, '[data-totals=extraction]', '2 queries, 1 errors');
    await page.waitForSelector('[data-chart=Fetches] canvas');
    await page.waitForSelector('[data-chart=Extraction] canvas');
    await page.$eval('[data-chart=Fetches]', (el) => (el as unknown as { scrollIntoView(): void }).scrollIntoView());
    await shot(page, 'usage-fetch-extraction');
    await page.close();

    // Over the dash API: a project key sees its own usage only; the admin key every key's, or the ones it names.
    const mine = await client(platform, projectKey).dash('/usage/fetch.json?groupby=day');
    expect((mine.body.results as { fetches: number; renders: number }[]).map((r) => [r.fetches, r.renders])).toEqual([[2, 1]]);
    expect((await client(platform, projectKey).dash(`/usage/extraction.json?users=${other}`)).status).toBe(403);
    const all = await client(platform, platform.adminKey).dash('/usage/extraction.json?groupby=day');
    expect((all.body.results as { queries: number }[]).map((r) => r.queries)).toEqual([3]);
    const named = await client(platform, platform.adminKey).dash(`/usage/fetch.json?groupby=day&users=${other}`);
    expect((named.body.results as { fetches: number }[]).map((r) => r.fetches)).toEqual([1]);
    expect(await client(platform, projectKey).dash('/usage/fetch.json?groupby=week')).toEqual({ status: 400, body: { status: 'error', message: 'Invalid groupby "week": one of max, hour, day' } });
  });

  it('lets the admin key manage keys: create one, grant and withdraw its capabilities, revoke it', async () => {
    const page = await signedInPage(platform.adminKey);
    await page.click('header.top nav a[href="/keys"]');
    await page.waitForSelector(`tr[data-key="${keyIdOf(platform.adminKey)}"]`);
    await page.type('form.create-key input[name=projects]', '3');
    await page.type('form.create-key input[name=label]', 'console-made');
    await page.click('form.create-key input[name=grant-browser]');
    await page.click('form.create-key button[name=create-key]');
    await page.waitForSelector('[data-secret]');
    const secret = await textOf(page, '[data-secret]');
    const row = `tr[data-key="${keyIdOf(secret)}"]`;
    await waitForText(page, row, 'projects 3');
    // The new key works, on its project only.
    const made = client(platform, secret);
    expect((await made.dash('/jobs/list.json?project=3')).status).toBe(200);
    expect((await made.dash('/jobs/list.json?project=1')).status).toBe(403);
    await page.click(`${row} button[name=grant-deploy]`);
    await page.waitForSelector(`${row} button[name=withdraw-deploy]`);
    await page.click(`${row} button[name=withdraw-browser]`);
    await page.waitForSelector(`${row} button[name=grant-browser]`);
    await shot(page, 'keys');
    const listed = await client(platform, platform.adminKey).dash('/keys/list.json');
    expect((listed.body.keys as { key_id: string; capabilities: string[] }[]).find((k) => k.key_id === keyIdOf(secret))?.capabilities).toEqual(['deploy']);
    page.once('dialog', (d) => void d.accept());
    await page.click(`${row} button[name=revoke]`);
    await page.waitForFunction((s: string) => !document.querySelector(s), {}, row);
    // Revoked: refused within the access cache time.
    const deadline = Date.now() + 10_000;
    while ((await made.dash('/jobs/list.json?project=3')).status !== 401 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect((await made.dash('/jobs/list.json?project=3')).status).toBe(401);
    await page.close();
  });

  it('keeps key management from a project key: not in its menu, the page and the API refuse it', async () => {
    const page = await signedInPage(projectKey);
    expect(await textOf(page, 'header.top nav')).not.toContain('Keys');
    await page.goto(`${url}/keys`);
    await waitForText(page, '.error', '403');
    const answers = await page.evaluate(async () => {
      const csrf = ((await (await fetch('/console/session')).json()) as { csrf: string }).csrf;
      const list = await fetch('/api/keys/list.json');
      const create = await fetch('/api/keys/create.json', { method: 'POST', headers: { 'X-CSRF-Token': csrf, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'project=1&grant=deploy' });
      return [list.status, create.status, await create.json()];
    });
    expect(answers).toEqual([403, 403, { status: 'error', message: 'Only an admin key manages keys' }]);
    await page.close();
  });

  it('keeps a project key out of another project: pages and actions refused, on the console and on the APIs', async () => {
    const page = await signedInPage(projectKey);
    await page.goto(`${url}/p/2`);
    await waitForText(page, '.error', '403');
    await page.goto(`${url}/p/${otherJob}`);
    await waitForText(page, '.error', '403');
    // Actions from the signed-in page itself (the session's CSRF proof included) are refused too.
    const answers = await page.evaluate(async (job: string) => {
      const csrf = ((await (await fetch('/console/session')).json()) as { csrf: string }).csrf;
      const headers = { 'X-CSRF-Token': csrf, 'Content-Type': 'application/x-www-form-urlencoded' };
      const stop = await fetch('/api/jobs/stop.json', { method: 'POST', headers, body: `project=2&job=${job}` });
      const run = await fetch('/api/run.json', { method: 'POST', headers, body: 'project=2&spider=node-crawler' });
      const items = await fetch(`/storage/items/${job}`);
      const write = await fetch(`/storage/collections/2/s/x`, { method: 'POST', headers: { 'X-CSRF-Token': csrf }, body: '{"_key":"a"}' });
      return [stop.status, run.status, items.status, write.status];
    }, otherJob);
    expect(answers).toEqual([403, 403, 403, 403]);
    await page.close();
    // The same refusals through the APIs with the key itself.
    const c = client(platform, projectKey);
    expect((await c.dash('/jobs/stop.json', { project: '2', job: otherJob })).status).toBe(403);
    expect((await fetch(`${platform.storageUrl}/items/${otherJob}`, { headers: { authorization: basic(projectKey) } })).status).toBe(403);
  });
});

describe('console sessions on the APIs (HTTP)', () => {
  let platform: TestPlatform;
  let key: string;
  let session: { cookie: string; csrf: string };

  beforeAll(async () => {
    platform = await startTestPlatform();
    key = await platform.createKey([1]);
    const res = await fetch(`${platform.consoleUrl}/console/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apikey: key }) });
    expect(res.status).toBe(200);
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    session = { cookie: setCookie.split(';')[0], csrf: ((await res.json()) as { csrf: string }).csrf };
  });

  afterAll(() => platform?.stop());

  it('accepts the session as the key on the dash and storage APIs, and refuses a changing request without its CSRF proof', async () => {
    const withCookie = (extra: Record<string, string> = {}) => ({ cookie: session.cookie, ...extra });
    // Reads: as the key, with its project scoping.
    expect((await fetch(`${platform.dashUrl}/jobs/list.json?project=1`, { headers: withCookie() })).status).toBe(200);
    expect((await fetch(`${platform.dashUrl}/jobs/list.json?project=2`, { headers: withCookie() })).status).toBe(403);
    expect((await fetch(`${platform.storageUrl}/items/1/1/1`, { headers: withCookie() })).status).toBe(200);
    expect((await fetch(`${platform.consoleUrl}/storage/items/1/1/1`, { headers: withCookie() })).status).toBe(200);
    // A cross-site form POST carries the cookie (were SameSite ignored) but never the proof: refused, nothing written.
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const forged = await fetch(`${platform.dashUrl}/run.json`, { method: 'POST', headers: withCookie(form), body: 'project=1&spider=forged' });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { message: string }).message).toMatch(/X-CSRF-Token/);
    const forgedWrite = await fetch(`${platform.storageUrl}/items/1/1/1`, { method: 'POST', headers: withCookie(), body: '{"a":1}\n' });
    expect(forgedWrite.status).toBe(403);
    expect((await fetch(`${platform.dashUrl}/jobs/count.json?project=1`, { headers: withCookie() }).then((r) => r.json())) as { total: number }).toMatchObject({ total: 0 });
    // With the proof: done.
    const ok = await fetch(`${platform.dashUrl}/run.json`, { method: 'POST', headers: withCookie({ ...form, 'x-csrf-token': session.csrf }), body: 'project=1&spider=real' });
    expect(ok.status).toBe(200);
    const written = await fetch(`${platform.consoleUrl}/storage/items/1/1/1`, { method: 'POST', headers: withCookie({ 'x-csrf-token': session.csrf }), body: '{"a":1}\n' });
    expect(written.status).toBe(200);
  });

  it('answers the key management API in the dash style: bad input 400, an unknown key 404, never its own revocation', async () => {
    const admin = client(platform, platform.adminKey);
    expect(await admin.dash('/keys/create.json', { project: '1', grant: 'root' })).toEqual({ status: 400, body: { status: 'error', message: 'Invalid capability "root": one of browser, extraction, deploy' } });
    expect((await admin.dash('/keys/create.json', { label: 'nothing' })).status).toBe(400);
    expect((await admin.dash('/keys/grant.json', { key_id: 'key-000000000000', capability: 'deploy' })).status).toBe(404);
    expect((await admin.dash('/keys/revoke.json', { key_id: 'not-a-key' })).status).toBe(400);
    expect(await admin.dash('/keys/revoke.json', { key_id: keyIdOf(platform.adminKey) })).toEqual({ status: 400, body: { status: 'error', message: 'A key cannot revoke itself: revoke it with another admin key' } });
    const created = await admin.dash('/keys/create.json', { project: ['4', '5'], grant: 'extraction' });
    expect(created.body.key).toEqual({ key_id: keyIdOf(created.body.apikey as string), label: 'projects 4,5', admin: false, projects: [4, 5], capabilities: ['extraction'] });
    // A revoked key is gone: a second revocation finds nothing.
    expect((await admin.dash('/keys/revoke.json', { key_id: keyIdOf(created.body.apikey as string) })).status).toBe(200);
    expect((await admin.dash('/keys/revoke.json', { key_id: keyIdOf(created.body.apikey as string) })).status).toBe(404);
    expect((await client(platform, key).dash('/keys/list.json')).status).toBe(403);
  });

  it('answers the whole build log of a past deploy, not only its failure\'s tail', async () => {
    const writer = new EventWriter(platform.core.eventLog, platform.core.projections, platform.core.config, platform.core.clock, platform.core.ids);
    const actor = { kind: 'system' as const, id: 'test' };
    const blob = { sha256: 'a'.repeat(64), size: 1, filename: 'p-1.egg' };
    const deployEvent = (type: string, data: object) => createEvent({ type, key: '1', data, actor }, systemStamps);
    const request = randomUUID();
    const log = Array.from({ length: 250 }, (_, i) => `build line ${i}`);
    await writer.appendAndWait(DEPLOYS_TOPIC, [
      deployEvent(DEPLOY_REQUESTED, { project: 1, request, version: 'v-log', stack: 'scrapy:2.11', egg: blob, eggs: [], requirements: null } satisfies DeployRequested),
      // Another deploy's lines in between stay out of this one's log.
      deployEvent(DEPLOY_LOG, { project: 1, request: randomUUID(), lines: ['not ours'] } satisfies DeployLog),
      deployEvent(DEPLOY_LOG, { project: 1, request, lines: log.slice(0, 200) } satisfies DeployLog),
      deployEvent(DEPLOY_LOG, { project: 1, request, lines: log.slice(200) } satisfies DeployLog),
    ]);
    await writer.appendAndWait(DEPLOYS_TOPIC, [
      deployEvent(DEPLOY_FAILED, { project: 1, request, reason: 'no spiders', logTail: log.slice(-20), builder: 'b' } satisfies DeployFailed),
    ]);
    const c = client(platform, key);
    const listed = (await c.dash('/deploys/list.json?project=1')).body.deploys as { deploy_id: number; version: string }[];
    const deployId = listed.find((d) => d.version === 'v-log')!.deploy_id;
    expect(await c.dash(`/deploys/log.json?project=1&deploy_id=${deployId}`)).toEqual({ status: 200, body: { status: 'ok', deploy_id: deployId, version: 'v-log', state: 'failed', lines: log } });
    expect((await c.dash('/deploys/log.json?project=1&deploy_id=999')).status).toBe(404);
    expect((await c.dash('/deploys/log.json?project=1&deploy_id=x')).status).toBe(400);
    expect((await c.dash(`/deploys/log.json?project=2&deploy_id=${deployId}`)).status).toBe(403);
  });

  it('answers a job\'s audit history from the log, to keys of its project only', async () => {
    const c = client(platform, key);
    const job = await c.run(1, 'audited');
    expect((await c.dash('/jobs/update.json', { project: '1', job, add_tag: 'seen' })).status).toBe(200);
    const audit = await c.dash(`/jobs/audit.json?project=1&job=${job}`);
    expect(audit.status).toBe(200);
    const entries = audit.body.entries as { type: string; actor: { kind: string; id: string }; request?: { op: string }; jobs?: { key: string; state: string }[] }[];
    expect(entries.map((e) => [e.actor.id, e.request?.op, e.jobs?.find((j) => j.key === job)?.state])).toEqual([
      [keyIdOf(key), 'push', 'pending'],
      [keyIdOf(key), 'tags', 'pending'],
    ]);
    expect((await c.dash(`/jobs/audit.json?project=1&job=2/1/1`)).status).toBe(400);
    expect((await client(platform, await platform.createKey([2])).dash(`/jobs/audit.json?project=1&job=${job}`)).status).toBe(403);
  });

  it('signs in only from a JSON body, so no other site can sign a browser in under its key', async () => {
    const res = await fetch(`${platform.consoleUrl}/console/session`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `apikey=${key}` });
    expect(res.status).toBe(415);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('keeps the first page\'s script under 150 KB compressed', () => {
    const { script } = buildConsole(ROOT);
    const compressed = gzipSync(readFileSync(join(ROOT, 'dist/console', script)), { level: 9 }).length;
    console.log(`console script: ${(compressed / 1024).toFixed(1)} KB gzipped (budget 150 KB)`);
    expect(compressed).toBeLessThan(150 * 1024);
  });

  it('serves the console at / and at the job URL shub prints, and the dash API stays under /api', async () => {
    for (const path of ['/', '/p/1/2/3', '/p/1/periodic']) {
      const res = await fetch(`${platform.consoleUrl}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await res.text()).toMatch(/<script defer src="\/console\/assets\/console-[A-Z0-9]+\.js">/);
    }
    expect((await fetch(`${platform.dashUrl}/jobs/list.json?project=1`, { headers: { authorization: basic(key) } })).status).toBe(200);
    expect((await fetch(`${platform.consoleUrl}/api/nothing-here`)).status).toBe(404);
    // Signing out clears the cookie.
    const out = await fetch(`${platform.consoleUrl}/console/session`, { method: 'DELETE', headers: { cookie: session.cookie, 'x-csrf-token': session.csrf } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/crawlhub_session=;.*Max-Age=0/);
  });
});
