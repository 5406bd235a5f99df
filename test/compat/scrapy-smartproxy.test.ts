import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { ProxyCa } from '@crawlhub/proxy';
import { startProxyApp } from '../../apps/proxy/proxy.app';
import { startStatsApp } from '../../apps/proxy/stats.app';
import { basic, startTestPlatform } from '../support/platform';
import { describeIf, needs } from '../support/skip';
import { runScript } from './run-python-check';
import { systemClock } from '@crawlhub/contracts';

/**
 * A real Scrapy crawl through the proxy with the official middleware,
 * scrapy-zyte-smartproxy (installed by test/compat/scrapy-env.sh; the spider is
 * test/compat/scrapy-smartproxy.py). What the middleware (2.4.1, middleware.py) reacts to:
 * - it acts only on responses carrying `X-Crawlera-Version` (or Zyte-Request-Id); others
 *   are passed on untouched, stats included;
 * - 503 with `X-Crawlera-Error: banned` is a ban: counts `zyte_smartproxy/response/banned`
 *   and sets the download slot's (the host's) delay to `Retry-After` (float seconds),
 *   counted in `delay/banned` and `delay/banned/total`; the next proxy response of that
 *   slot restores the delay; more than ZYTE_SMARTPROXY_MAXBANS (400) bans in a row in a
 *   slot close the spider "banned". The middleware does not retry a ban itself: Scrapy's RetryMiddleware does
 *   (503 is in RETRY_HTTP_CODES, RETRY_TIMES 2);
 * - 429 or 503 with any other `X-Crawlera-Error` is throttling: the slot delay becomes an
 *   exponential backoff with full jitter (uniform(0, 15 * 2^n) s, at most 180 s), counted
 *   in `delay/<code>`; Retry-After is not read there;
 * - 407 `bad_proxy_auth`: the same backoff, and a retry of its own (up to 10,
 *   `retries/auth`);
 * - any other proxy response resets the backoff (`delay/reset_backoff`); every one counts
 *   `response`, `response/status/<n>` and, with an error header, `response/error/<code>`;
 * - `X-Crawlera-Next-Request-In` is not read at all.
 */
const PYTHON = process.env.SCRAPY_PYTHON ?? '';
const TITLE = 'Scrapy with scrapy-zyte-smartproxy crawls a site through the proxy';
const EXITS = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
const PAGES = 30;
/** Pages linked (and crawled) over https. */
const HTTPS_PAGES = new Set([10, 20]);
/**
 * Pages that answer 403 (a default ban rule) to their first n hits, whatever the exit.
 * Each is on a host of its own (p<n>.site.test): the proxy sets exits aside per host and
 * Scrapy delays per host, so one page's bans and retries do not change another's.
 */
const BANNING = new Map([[3, 2], [7, 4], [12, 3], [20, 2]]);
/** ZYTE_SMARTPROXY_DEFAULT_HEADERS of the spider: X-Crawlera-Max-Retries 1. */
const TRIES_PER_REQUEST = 2;
const BAN_COOLDOWN_MS = 1100;
/**
 * What the proxy answers in Retry-After for that cooldown (rounded up to whole seconds):
 * the retry comes about 0.9 s after the exits are back, leaving room for slow machines.
 */
const RETRY_AFTER_S = 2;

interface Hit {
  page: number;
  host: string;
  status: number;
  remote: string;
  at: number;
}

interface LinkedSite {
  /** The canonical URL of every page (what a complete crawl scrapes). */
  urls: string[];
  /** The host a page is linked under. */
  hostOf(page: number): string;
  hits: Hit[];
  caFile: string;
  close(): Promise<void>;
}

/**
 * Pages /page/1..PAGES of site.test, over http and https (certificates from its own CA,
 * in `caFile`). Each page links to the next one, to page 1 and to page 2n; HTTPS_PAGES
 * are linked with https URLs. `banning` pages answer 403 to their first hits, each on a
 * host of its own.
 */
async function startLinkedSite(banning: Map<number, number>): Promise<LinkedSite> {
  const hostOf = (page: number) => (banning.has(page) ? `p${page}.site.test` : 'site.test');
  const ca = new ProxyCa(mkdtempSync(join(tmpdir(), 'site-ca-')), systemClock);
  await ca.open();
  const leaf = await ca.leaf('site.test');
  const hits: Hit[] = [];
  const ports = { http: 0, https: 0 };
  const url = (n: number) => (HTTPS_PAGES.has(n) ? `https://${hostOf(n)}:${ports.https}/page/${n}` : `http://${hostOf(n)}:${ports.http}/page/${n}`);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const m = /^\/page\/(\d+)$/.exec(req.url ?? '');
    const n = m ? Number(m[1]) : 0;
    if (n < 1 || n > PAGES) return void res.writeHead(404).end();
    const status = hits.filter((h) => h.page === n).length < (banning.get(n) ?? 0) ? 403 : 200;
    hits.push({ page: n, host: (req.headers.host ?? '').split(':')[0], status, remote: (req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''), at: Date.now() });
    const links = [n + 1, 1, 2 * n].filter((l) => l <= PAGES).map((l) => `<a href="${url(l)}">${l}</a>`);
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Page ${n}</title>${status === 403 ? 'denied' : links.join(' ')}`);
  };
  const sni = (name: string, cb: (e: Error | null, c?: ReturnType<typeof createSecureContext>) => void) =>
    ca.leaf(name).then((l) => cb(null, createSecureContext({ cert: l.cert, key: l.key })), cb);
  const servers: Server[] = [createHttpServer(handler), createHttpsServer({ cert: leaf.cert, key: leaf.key, SNICallback: sni }, handler) as unknown as Server];
  for (const s of servers) await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  [ports.http, ports.https] = servers.map((s) => (s.address() as AddressInfo).port);
  return {
    urls: Array.from({ length: PAGES }, (_, i) => url(i + 1)),
    hostOf,
    hits,
    caFile: join(ca.certsDir, 'ca.pem'),
    close: async () => {
      for (const s of servers) {
        s.closeAllConnections();
        await new Promise((r) => s.close(r));
      }
    },
  };
}

interface Crawl {
  items: { url: string; title: string }[];
  stats: Record<string, number | string>;
  close_reason: string;
}

interface CrawlRun {
  site: LinkedSite;
  /** The proxy key of the crawl. */
  key: string;
  crawl: Crawl;
  statsUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the site, a platform with the proxy (exits `exits`, settings `env`) and its stats
 * app, and crawls the site from `starts` (page numbers) with Scrapy (more Scrapy
 * `settings`); the crawl has ended when this resolves.
 */
async function crawlThroughProxy(o: { banning: Map<number, number>; exits: string[]; env: Record<string, string>; starts: number[]; settings?: Record<string, unknown> }): Promise<CrawlRun> {
  const site = await startLinkedSite(o.banning);
  const platform = await startTestPlatform({
    PROXY_PORT: '0',
    STATS_PORT: '0',
    ALLOW_PRIVATE_TARGETS: 'true',
    PROXY_EXITS: o.exits.join(','),
    PROXY_STATIC_HOSTS: [...new Set(site.urls.map((u) => new URL(u).hostname))].map((h) => `${h}=127.0.0.1`).join(','),
    PROXY_UPSTREAM_CA_FILE: site.caFile,
    PROXY_STATS_FLUSH_MS: '200',
    ...o.env,
  });
  const key = await platform.createKey([1]);
  const proxy = await startProxyApp(platform.core, ['error']);
  const stats = await startStatsApp(platform.core, ['error']);
  const close = async () => {
    await stats.close();
    await proxy.close();
    await platform.stop();
    await site.close();
  };
  const output = join(mkdtempSync(join(tmpdir(), 'scrapy-smartproxy-')), 'crawl.json');
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' };
  // The middleware labels requests with SCRAPY_JOB when set; none leaks in from outside.
  delete env.SCRAPY_JOB;
  const starts = o.starts.map((n) => site.urls[n - 1]).join(',');
  const run = await runScript(PYTHON, join(__dirname, 'scrapy-smartproxy.py'), [starts, `http://127.0.0.1:${proxy.port}`, key, output, JSON.stringify(o.settings ?? {})], env);
  if (run.code !== 0) {
    await close();
    throw new Error(`scrapy-smartproxy.py exited with ${run.code ?? run.signal}:\n${run.output}`);
  }
  return { site, key, crawl: JSON.parse(readFileSync(output, 'utf8')), statsUrl: `http://127.0.0.1:${(stats.getHttpServer().address() as AddressInfo).port}/stats`, close };
}

describeIf(needs.scrapy)(TITLE, () => {
  let run: CrawlRun;
  let site: LinkedSite;
  let crawl: Crawl;

  beforeAll(async () => {
    run = await crawlThroughProxy({
      banning: BANNING,
      exits: EXITS,
      // Bans, not throttling, are this crawl's subject (throttling would space its requests by 12 s).
      env: { PROXY_BAN_COOLDOWN_MS: String(BAN_COOLDOWN_MS), PROXY_THROTTLE_SPACING_MS: '0' },
      starts: [1],
    });
    ({ site, crawl } = run);
  }, 150_000);

  afterAll(() => run?.close());

  /** The site's hits grouped into proxied requests: a 403 group of TRIES_PER_REQUEST hits was one 503 banned answer. */
  const bannedAnswers = () => {
    const groups: Hit[][] = [];
    for (const [page] of BANNING) {
      const denied = site.hits.filter((h) => h.page === page && h.status === 403);
      for (let i = 0; i + TRIES_PER_REQUEST <= denied.length; i += TRIES_PER_REQUEST) groups.push(denied.slice(i, i + TRIES_PER_REQUEST));
    }
    return groups;
  };

  it('finishes, scraping every page of the site exactly once (https pages included)', () => {
    expect(crawl.close_reason).toBe('finished');
    expect(crawl.items.map((i) => i.url).sort()).toEqual([...site.urls].sort());
    expect(crawl.items.filter((i) => i.url.startsWith('https://'))).toHaveLength(HTTPS_PAGES.size);
    for (const item of crawl.items) expect(item.title).toBe(`Page ${/\/page\/(\d+)$/.exec(item.url)?.[1]}`);
    // Each page was asked for at the host it is linked under.
    for (const h of site.hits) expect(h.host).toBe(site.hostOf(h.page));
    // Exits rotate: the site saw every one of them.
    expect(new Set(site.hits.map((h) => h.remote))).toEqual(new Set(EXITS));
  });

  it('has the middleware recognise every answer as the proxy\'s (X-Crawlera-Version)', () => {
    expect(crawl.stats['zyte_smartproxy/response']).toBe(crawl.stats['downloader/response_count']);
    expect(crawl.stats['zyte_smartproxy/response/status/200']).toBe(PAGES);
  });

  it('has the middleware count every 503 banned the proxy answered once its retries on other exits were spent', () => {
    const answers = bannedAnswers();
    // Each banned answer came after tries on distinct exits.
    for (const tries of answers) expect(new Set(tries.map((h) => h.remote)).size).toBe(TRIES_PER_REQUEST);
    expect(answers.length).toBeGreaterThan(0);
    // A page banned twice was tried again on an exit of its first ban: a cooldown only
    // changes which exit goes first, it never takes an exit away (docs/proxy.md "Bans").
    const twice = answers.filter((tries) => tries[0].page === 7);
    expect(twice).toHaveLength(2);
    expect(twice[1].some((h) => twice[0].some((first) => first.remote === h.remote))).toBe(true);
    expect(crawl.stats['zyte_smartproxy/response/banned']).toBe(answers.length);
    expect(crawl.stats['zyte_smartproxy/response/error/banned']).toBe(answers.length);
    expect(crawl.stats['zyte_smartproxy/response/status/503']).toBe(answers.length);
    // Scrapy's RetryMiddleware retried each one, and the retry that followed got through.
    expect(crawl.stats['retry/count']).toBe(answers.length);
    expect(crawl.stats['retry/max_reached']).toBeUndefined();
  });

  it('has the middleware wait Retry-After before the next request after a ban', () => {
    const answers = bannedAnswers();
    expect(crawl.stats['zyte_smartproxy/delay/banned']).toBe(answers.length);
    expect(crawl.stats['zyte_smartproxy/delay/banned/total']).toBe(answers.length * RETRY_AFTER_S);
    for (const tries of answers) {
      // The retry of the page (its host's download slot got the delay).
      const next = site.hits.find((h) => h.page === tries[0].page && h.at >= tries[TRIES_PER_REQUEST - 1].at && !tries.includes(h));
      // Without the delay the retry follows within milliseconds; the delay counts from
      // when the banned request left (a TLS handshake may come before its first try).
      expect(next!.at - tries[TRIES_PER_REQUEST - 1].at).toBeGreaterThanOrEqual((RETRY_AFTER_S * 1000) / 2);
    }
  });

  it('counts the crawl in the usage statistics (GET /stats): bans as failed', async () => {
    const bans = bannedAnswers().length;
    const responses = Number(crawl.stats['downloader/response_count']);
    let totals = { clean: 0, failed: 0 };
    for (let i = 0; i < 100 && totals.clean + totals.failed < responses; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const res = await fetch(run.statsUrl, { headers: { authorization: basic(run.key) } });
      expect(res.status).toBe(200);
      const { results } = (await res.json()) as { results: { clean: number; failed: number }[] };
      totals = results.reduce((t, r) => ({ clean: t.clean + r.clean, failed: t.failed + r.failed }), { clean: 0, failed: 0 });
    }
    expect(totals).toEqual({ clean: responses - bans, failed: bans });
  });
});

describeIf(needs.scrapy)(`${TITLE}, with the proxy's throttling`, () => {
  /** One exit, slots 100 ms apart; a request that would wait 300 ms is refused (503 with Retry-After). */
  const SPACING_MS = 100;
  let run: CrawlRun;

  beforeAll(async () => {
    run = await crawlThroughProxy({
      banning: new Map(),
      exits: [EXITS[0]],
      env: { PROXY_THROTTLE_SPACING_MS: String(SPACING_MS), PROXY_THROTTLE_SOFT_LIMIT_MS: '200', PROXY_THROTTLE_HARD_LIMIT_MS: '300' },
      // Eight pages at once (Scrapy's 8 per domain): the later ones would wait too long.
      starts: [1, 4, 5, 9, 11, 13, 17, 19],
      // The middleware's backoff after a throttling answer: uniform(0, 2^n) s, at most 2 s (it
      // reads whole seconds; 15 s steps by default); Scrapy retries the 503s until they get through.
      settings: { ZYTE_SMARTPROXY_BACKOFF_STEP: 1, ZYTE_SMARTPROXY_BACKOFF_MAX: 2, RETRY_TIMES: 30 },
    });
  }, 150_000);

  afterAll(() => run?.close());

  it('finishes, every page once, with the requests to the site spaced by the proxy', () => {
    const { crawl, site } = run;
    expect(crawl.close_reason).toBe('finished');
    expect(crawl.items.map((i) => i.url).sort()).toEqual([...site.urls].sort());
    // A refused request never reached the site: one hit per page.
    expect(site.hits).toHaveLength(PAGES);
    const times = site.hits.map((h) => h.at).sort((a, b) => a - b);
    // A request reaches the site a little after its slot (more for https: the handshake, or
    // when a leaf certificate's signature holds the proxy's event loop and two slots' timers
    // fire together), so one gap may look short; the typical gap and the whole span may not.
    const gaps = times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b);
    expect(gaps[Math.floor(gaps.length / 2)]).toBeGreaterThanOrEqual(SPACING_MS * 0.9);
    expect(times[times.length - 1] - times[0]).toBeGreaterThanOrEqual((times.length - 1) * SPACING_MS * 0.95);
  });

  it('has the middleware back off on every 503 past the hard limit, and Scrapy retry it', () => {
    const { crawl } = run;
    const throttled = Number(crawl.stats['zyte_smartproxy/response/error//limits/over-domain-limit']);
    expect(throttled).toBeGreaterThan(0);
    expect(crawl.stats['zyte_smartproxy/delay/limits/over-domain-limit']).toBe(throttled);
    expect(crawl.stats['zyte_smartproxy/response/status/503']).toBe(throttled);
    expect(crawl.stats['zyte_smartproxy/response/banned']).toBeUndefined();
    expect(crawl.stats['retry/count']).toBe(throttled);
  });
});
