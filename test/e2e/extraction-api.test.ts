import { connect } from 'node:net';
import { keyIdOf } from '@crawlhub/access';
import { EXTRACTION_COMPLETED, EXTRACTION_REQUESTED, EXTRACTION_REQUESTS_TOPIC, EXTRACTION_RESULTS_TOPIC, ExtractionCompleted, EventEnvelope } from '@crawlhub/contracts';
import type { QueryResult } from '@crawlhub/extraction-batches';
import { ExtractionSite, SITE_ARTICLE, SITE_PRODUCT } from '../../bench/extraction-site';
import { cli } from '../support/cli';
import { ExtractionStack, startExtractionStack } from '../support/extraction-stack';
import { basic, TestPlatform } from '../support/platform';

const QUERY_TIMEOUT_MS = 4000;
const TYPE = (slug: string) => `http://errors.xod.scrapinghub.com/${slug}.html`;

describe('extraction API: batches of queries, extracted by the workers', () => {
  let stack: ExtractionStack;
  let platform: TestPlatform;
  let site: ExtractionSite;
  let extractUrl: string;
  let key: string;

  async function extract(body: unknown, o: { auth?: string | null; contentType?: string; path?: string; method?: string } = {}) {
    const auth = o.auth === undefined ? key : o.auth;
    const res = await fetch(`${extractUrl}${o.path ?? '/v1/extract'}`, {
      method: o.method ?? 'POST',
      headers: { 'content-type': o.contentType ?? 'application/json', ...(auth === null ? {} : { authorization: basic(auth) }) },
      ...(o.method === 'GET' ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
  }

  /** Every event of a topic (all partitions), oldest first per partition. */
  async function eventsOf(topic: string): Promise<EventEnvelope[]> {
    const log = platform.core.eventLog;
    const ends = await log.endOffsets(topic);
    const all = await Promise.all(ends.map((end, p) => log.read(topic, p, 0, end)));
    return all.flat().map((e) => e.event);
  }

  beforeAll(async () => {
    stack = await startExtractionStack({
      PROXY_EXITS: '127.0.0.2,127.0.0.3',
      // The proxy waits longer than a query may take, so a page that never answers is the query's timeout.
      PROXY_TIMEOUT_MIN_MS: '10000',
      PROXY_TIMEOUT_MAX_MS: '20000',
      EXTRACT_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
      EXTRACT_USER_QUERIES_IN_FLIGHT: '20',
      EXTRACT_QUERIES_IN_FLIGHT: '30',
      WORKER_CONCURRENCY: '16',
    });
    ({ platform, site, apiUrl: extractUrl } = stack);
    key = await platform.createKey([1], ['extraction']);
  }, 90_000);

  afterAll(() => stack?.close());

  it('extracts an article: the page’s headline, author, date and body, with its HTML by default', async () => {
    const r = await extract([{ url: `${site.url}/article`, pageType: 'article', meta: 'the article' }]);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    const [result] = r.json as QueryResult[];
    expect(result.query).toEqual({ id: expect.stringMatching(/^\d{13}-[0-9a-f]{16}$/), domain: '127.0.0.1', userQuery: { url: `${site.url}/article`, pageType: 'article', meta: 'the article' } });
    const article = result.article!;
    expect(article).toMatchObject({ url: `${site.url}/article`, headline: SITE_ARTICLE.headline, author: SITE_ARTICLE.author });
    expect(String(article.datePublished)).toMatch(/^2026-03-14T09:30:00/);
    for (const p of SITE_ARTICLE.paragraphs) expect(article.articleBody).toContain(p);
    expect(article.articleBody).not.toContain('Ferry timetable');
    expect(article.articleBodyRaw).toContain(SITE_ARTICLE.paragraphs[0]);
    expect(article.probability).toBeGreaterThan(0.5);
    expect(result).not.toHaveProperty('error');
  });

  it('leaves the article’s HTML out when articleBodyRaw is false', async () => {
    const [result] = (await extract([{ url: `${site.url}/article`, pageType: 'article', articleBodyRaw: false }])).json as QueryResult[];
    expect(result.article!.articleBody).toContain(SITE_ARTICLE.paragraphs[1]);
    expect(result.article).not.toHaveProperty('articleBodyRaw');
  });

  it('extracts a product: name, price as shown, currency, availability and sku', async () => {
    const [result] = (await extract([{ url: `${site.url}/product`, pageType: 'product' }])).json as QueryResult[];
    expect(result.product).toMatchObject({ url: `${site.url}/product`, name: SITE_PRODUCT.name, sku: SITE_PRODUCT.sku });
    expect(result.product!.offers).toEqual([expect.objectContaining({ price: SITE_PRODUCT.price, availability: 'InStock' })]);
    expect(result.product!.probability).toBeGreaterThan(0.5);
  });

  it('answers a batch mixing good pages, website errors, a refused port and a timeout: one result per query, the others not held back by failures', async () => {
    const queries = [
      { url: `${site.url}/article`, pageType: 'article', meta: 'article' },
      { url: `${site.url}/product`, pageType: 'product', meta: 'product' },
      { url: `${site.url}/status/404`, pageType: 'article', meta: '404' },
      { url: `${site.url}/status/500`, pageType: 'product', meta: '500' },
      { url: 'http://127.0.0.1:1/refused', pageType: 'article', meta: 'refused' },
      { url: `${site.url}/hold`, pageType: 'article', meta: 'timeout' },
      { url: `${site.url}/redirect`, pageType: 'article', meta: 'redirect' },
      { url: `${site.url}/image.png`, pageType: 'product', meta: 'image' },
      { url: `${site.url}/blank`, pageType: 'article', meta: 'blank' },
      { url: 'http//missing-colon', pageType: 'article', meta: 'malformed' },
      { url: 'ftp://127.0.0.1/file', pageType: 'article', meta: 'ftp' },
    ];
    const started = Date.now();
    const r = await extract(queries);
    const took = Date.now() - started;
    expect(r.status).toBe(200);
    const byMeta = new Map((r.json as QueryResult[]).map((x) => [x.query.userQuery.meta, x]));
    expect([...byMeta.keys()].sort()).toEqual(queries.map((q) => q.meta).sort());
    expect(byMeta.get('article')!.article!.headline).toBe(SITE_ARTICLE.headline);
    expect(byMeta.get('product')!.product!.name).toBe(SITE_PRODUCT.name);
    const errors = Object.fromEntries([...byMeta].filter(([, x]) => x.error !== undefined).map(([m, x]) => [m, x.error]));
    expect(errors).toEqual({
      '404': 'Downloader error: http404',
      '500': 'Downloader error: http500',
      refused: 'Proxy error: econnrefused',
      timeout: 'query timed out',
      redirect: 'Downloader error: No response (network301)',
      image: 'Downloader error: No visible elements',
      blank: 'Downloader error: No visible elements',
      malformed: 'malformed url',
      ftp: 'non-HTTP schemas are not allowed',
    });
    for (const x of byMeta.values()) if (x.error !== undefined) expect(Object.keys(x).sort()).toEqual(['error', 'query']);
    // The timeout ends the batch: not much later than the query limit.
    expect(took).toBeGreaterThanOrEqual(QUERY_TIMEOUT_MS - 100);
    expect(took).toBeLessThan(QUERY_TIMEOUT_MS + 3000);

    // The log holds each fetchable query once and its result, with what usage counts.
    const ids = new Map([...byMeta].map(([m, x]) => [x.query.id, m]));
    const requested = (await eventsOf(EXTRACTION_REQUESTS_TOPIC)).filter((e) => e.type === EXTRACTION_REQUESTED && ids.has(e.key));
    expect(requested.map((e) => ids.get(e.key)).sort()).toEqual(['404', '500', 'article', 'blank', 'image', 'product', 'redirect', 'refused', 'timeout']);
    expect(new Set(requested.map((e) => e.correlationId)).size).toBe(1);
    const completed = (await eventsOf(EXTRACTION_RESULTS_TOPIC)).filter((e) => e.type === EXTRACTION_COMPLETED && ids.has(e.key));
    const billable = Object.fromEntries(completed.map((e) => [ids.get(e.key), (e.data as ExtractionCompleted).billable]));
    expect(billable).toMatchObject({ article: true, product: true, '404': true, refused: true });
    expect(billable).not.toHaveProperty('malformed');
  }, 20_000);

  it('answers a later batch at once while an earlier query waits on a page that never answers (a slow query holds up no queue)', async () => {
    const holding = extract([{ url: `${site.url}/hold`, pageType: 'article', meta: 'held' }]);
    // The held query is taken by a worker before the next batch is queued.
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const later = await extract(Array.from({ length: 6 }, (_, i) => ({ url: `${site.url}/article`, pageType: 'article', meta: `later ${i}` })));
    const took = Date.now() - started;
    expect((later.json as QueryResult[]).map((x) => x.error ?? x.article!.headline)).toEqual(Array(6).fill(SITE_ARTICLE.headline));
    // Well before the held query's deadline (QUERY_TIMEOUT_MS after it was sent).
    expect(took).toBeLessThan(QUERY_TIMEOUT_MS / 2);
    expect(((await holding).json as QueryResult[])[0].error).toBe('query timed out');
  });

  it('accounts usage per query: `crawlhub usage extraction` adds up the results in the log', async () => {
    const user = await platform.createKey([1], ['extraction']);
    await extract([{ url: `${site.url}/article`, pageType: 'article' }, { url: `${site.url}/status/404`, pageType: 'product' }, { url: 'no url', pageType: 'article' }], { auth: user });
    const config = platform.core.config;
    // The CLI reads the same log as this platform (this lane's log and view store).
    const lane: Record<string, string> = { EVENT_LOG: config.eventLog.kind, EVENT_LOG_NAMESPACE: config.eventLog.namespace, VIEW_STORE: config.viewStore.kind };
    if (config.viewStore.kind === 'mongodb') lane.MONGODB_DATABASE = config.viewStore.database;
    const r = await cli(config.dataDir, ['usage', 'extraction', '--key', keyIdOf(user)], lane);
    expect(r.code).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    // The malformed URL was never queued: not a query done, not billed.
    expect(r.out).toMatch(new RegExp(`${today}  ${keyIdOf(user)}\\s+2\\s+2\\s+1\\n`));
  }, 30_000);

  describe('request-level errors: application/problem+json with the original’s type URIs', () => {
    it.each([
      ['no credentials', () => extract([], { auth: null }), 401, 'unauthorized'],
      ['an unknown key', () => extract([], { auth: 'not-a-key' }), 401, 'unauthorized'],
      ['another content type', () => extract('url=x', { contentType: 'application/x-www-form-urlencoded' }), 415, 'unrecognized-content-type'],
      ['an empty body', () => extract(''), 400, 'empty-request'],
      ['broken JSON', () => extract('[{"url": "http://a.test/"'), 400, 'malformed-json'],
      ['a query without pageType', () => extract([{ url: 'http://a.test/' }]), 400, 'malformed-request'],
      ['101 queries', () => extract(Array.from({ length: 101 }, () => ({ url: 'http://a.test/', pageType: 'article' }))), 413, 'queries-limit-reached'],
      ['a body over 128 KB', () => extract([{ url: 'http://a.test/', pageType: 'article', meta: 'x'.repeat(4000) }].concat(Array.from({ length: 40 }, () => ({ url: `http://a.test/${'y'.repeat(4000)}`, pageType: 'article', meta: '' })))), 413, 'malformed-request'],
      ['another path', () => extract([], { path: '/v2/extract' }), 404, 'unknown-uri'],
      ['GET', () => extract(null, { method: 'GET' }), 405, 'method-not-allowed'],
    ])('%s', async (_why, call, status, slug) => {
      const r = await call();
      expect(r.status).toBe(status);
      expect(r.headers.get('content-type')).toBe('application/problem+json');
      expect(r.json).toMatchObject({ type: TYPE(slug), title: expect.any(String) });
    });

    it('403 account-disabled for a key not enabled for extraction, saying how to enable it', async () => {
      const other = await platform.createKey([1]);
      const before = site.hits.get('/article') ?? 0;
      const r = await extract([{ url: `${site.url}/article`, pageType: 'article' }], { auth: other });
      expect(r.status).toBe(403);
      expect(r.json).toMatchObject({ type: TYPE('account-disabled') });
      expect(r.json.title).toContain('keys grant');
      expect(site.hits.get('/article') ?? 0).toBe(before);
    });

    it('429 when a key, then the whole process, has too many queries in flight; free again once they are done', async () => {
      const hold = (n: number) => Array.from({ length: n }, () => ({ url: `${site.url}/hold`, pageType: 'article' }));
      const running = extract(hold(20));
      await new Promise((r) => setTimeout(r, 300));
      const mine = await extract(hold(1));
      expect(mine.status).toBe(429);
      expect(mine.json).toMatchObject({ type: TYPE('user-rate-limit-exceeded'), retryAfter: expect.any(Number) });
      expect(mine.headers.get('retry-after')).toBe(String(mine.json.retryAfter));
      const other = await platform.createKey([2], ['extraction']);
      const theirs = await extract(hold(11), { auth: other });
      expect(theirs.json).toMatchObject({ type: TYPE('rate-limit-exceeded') });
      expect((await extract(hold(10), { auth: other })).status).toBe(200);
      expect([...new Set((await running).json.map((x: QueryResult) => x.error))]).toEqual(['query timed out']);
      expect((await extract([{ url: `${site.url}/article`, pageType: 'article' }])).status).toBe(200);
    }, 20_000);

    it('400 http-pipelining-not-supported for a second request sent before the first is answered', async () => {
      const body = JSON.stringify([{ url: `${site.url}/hold`, pageType: 'article' }]);
      const request = `POST /v1/extract HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic(key)}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      const socket = connect(Number(new URL(extractUrl).port), '127.0.0.1');
      let received = '';
      socket.on('data', (d) => (received += d.toString()));
      socket.write(request + request);
      await new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if ((received.match(/HTTP\/1\.1 \d{3}/g) ?? []).length >= 2) {
            clearInterval(check);
            resolve();
          }
        }, 50);
      });
      socket.destroy();
      const statuses = received.match(/HTTP\/1\.1 (\d{3})/g)!.map((s) => s.slice(9));
      expect(statuses).toEqual(['200', '400']);
      expect(received).toContain(TYPE('http-pipelining-not-supported'));
    }, 15_000);
  });
});

describe('extraction API under the proxy’s throttling', () => {
  let stack: ExtractionStack;

  beforeAll(async () => {
    // One exit, one request per domain a minute: the second query to a domain would wait past its query's timeout.
    stack = await startExtractionStack({ PROXY_EXITS: '127.0.0.2', PROXY_THROTTLE_SPACING_MS: '60000', EXTRACT_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS) });
  }, 90_000);

  afterAll(() => stack?.close());

  it('answers "Domain … is occupied, please retry in … seconds" at once for the queries the domain has no slot for in time', async () => {
    const key = await stack.platform.createKey([1], ['extraction']);
    const started = Date.now();
    const res = await fetch(`${stack.apiUrl}/v1/extract`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic(key) },
      body: JSON.stringify([{ url: `${stack.site.url}/article`, pageType: 'article', meta: 'first' }, { url: `${stack.site.url}/product`, pageType: 'product', meta: 'second' }]),
    });
    const results = (await res.json()) as QueryResult[];
    // Nobody waited for the query timeout.
    expect(Date.now() - started).toBeLessThan(QUERY_TIMEOUT_MS - 1000);
    const errors = results.map((r) => r.error).filter((e) => e !== undefined);
    expect(results.filter((r) => r.article || r.product)).toHaveLength(1);
    expect(errors).toHaveLength(1);
    const occupied = /^Domain 127\.0\.0\.1 is occupied, please retry in (\d+(\.\d+)?) seconds$/.exec(errors[0]!);
    expect(occupied).not.toBeNull();
    expect(Number(occupied![1])).toBeGreaterThan(50);
    expect(Number(occupied![1])).toBeLessThanOrEqual(60);
    // The refused query never reached the website.
    expect((stack.site.hits.get('/article') ?? 0) + (stack.site.hits.get('/product') ?? 0)).toBe(1);
  }, 20_000);
});
