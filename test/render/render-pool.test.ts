import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, globalAgent, request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { TargetPolicy } from '@crawlhub/net';
import { RenderError, RenderFailure, RenderPool, RenderPoolOptions } from '@crawlhub/render';
import { startProxyApp, StartedProxy } from '../../apps/proxy/proxy.app';
import { RenderSite, SCRIPT_TEXT, startRenderSite } from '../../bench/render-site';
import { startTestPlatform, TestPlatform } from '../support/platform';
import { ProxyOrigin, startProxyOrigin } from '../support/proxy-origin';
import { CHROMIUM, describeIf, needs } from '../support/skip';

const VIEWPORT = { width: 800, height: 600 };
/** The SSRF rule with nothing but public addresses allowed. */
const GUARDED = new TargetPolicy({ allowPrivate: false, allowed: [] });

function poolOptions(change: Partial<RenderPoolOptions> = {}): RenderPoolOptions {
  return {
    chromiumPath: CHROMIUM,
    concurrency: 2,
    queueLimit: 100,
    timeoutMs: 15_000,
    recyclePages: 1000,
    recycleRssMb: 4096,
    proxyUrl: null,
    targets: new TargetPolicy({ allowPrivate: true, allowed: [] }),
    viewport: VIEWPORT,
    ...change,
  };
}

/** The failure a render rejected with, and how long it took. */
async function failureOf(render: Promise<unknown>): Promise<{ failure: RenderFailure; message: string; ms: number }> {
  const started = Date.now();
  try {
    await render;
  } catch (e) {
    if (!(e instanceof RenderError)) throw e;
    return { failure: e.failure, message: e.message, ms: Date.now() - started };
  }
  throw new Error('the render succeeded');
}

describeIf(needs.chromium)('render pool', () => {
  let site: RenderSite;
  const pools: RenderPool[] = [];
  async function startPool(change: Partial<RenderPoolOptions> = {}): Promise<RenderPool> {
    const pool = await RenderPool.start(poolOptions(change));
    pools.push(pool);
    return pool;
  }

  beforeAll(async () => {
    site = await startRenderSite();
  });

  afterAll(async () => {
    for (const p of pools) await p.close();
    await site?.close();
  });

  describe('with two workers', () => {
    let pool: RenderPool;
    beforeAll(async () => {
      pool = await startPool();
    }, 30_000);

    it('returns the DOM after the page scripts ran, with the status, headers and final URL', async () => {
      const r = await pool.render({ url: `${site.url}/page` });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.finalUrl).toBe(`${site.url}/page`);
      expect(r.html).toContain(`<p class="js">${SCRIPT_TEXT}</p>`);
      expect(r.screenshot).toBeUndefined();
    });

    it('takes a PNG screenshot of the viewport when asked', async () => {
      const r = await pool.render({ url: `${site.url}/page`, screenshot: true });
      const png = r.screenshot!;
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(png.toString('latin1', 12, 16)).toBe('IHDR');
      expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual(VIEWPORT);
    });

    it('times out a slow page from when it started rendering, and keeps working after', async () => {
      const slow = await failureOf(pool.render({ url: `${site.url}/slow?ms=10000`, timeoutMs: 700 }));
      expect(slow.failure).toBe('timeout');
      expect(slow.ms).toBeGreaterThanOrEqual(650);
      expect(slow.ms).toBeLessThan(5000);
      const after = await Promise.all([1, 2, 3].map(() => pool.render({ url: `${site.url}/page` })));
      expect(after.map((r) => r.html.includes(SCRIPT_TEXT))).toEqual([true, true, true]);
    });

    it('clears cookies and storage between renders', async () => {
      const seen = [];
      for (let i = 0; i < 4; i += 1) seen.push(/<p id="seen">(.*?)<\/p>/.exec((await pool.render({ url: `${site.url}/state` })).html)?.[1]);
      expect(seen).toEqual(Array(4).fill('cookie=[] storage=[] session=[]'));
    });

    it('reports a connection failure with Chromium\'s error text', async () => {
      const closed = await startRenderSite();
      await closed.close();
      const refused = await failureOf(pool.render({ url: `${closed.url}/page` }));
      expect(refused).toMatchObject({ failure: 'net_error', message: 'net::ERR_CONNECTION_REFUSED' });
    });

    it('renders 50 pages sent at once, all of them', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => pool.render({ url: `${site.url}/page?n=${i}` })));
      expect(results.filter((r) => r.status === 200 && r.html.includes(SCRIPT_TEXT) && r.finalUrl.endsWith(`?n=${results.indexOf(r)}`))).toHaveLength(50);
    }, 60_000);
  });

  it('reads a page that navigates again right after its load (a script\'s redirect) instead of failing the render', async () => {
    const pool = await startPool({ concurrency: 1 });
    const results = await Promise.all(Array.from({ length: 10 }, () => pool.render({ url: `${site.url}/hop` }).then((r) => ({ ok: true, html: r.html }), (e: Error) => ({ ok: false, html: e.message }))));
    // The render answers with whichever document the page holds when it is read: /hop's, or /page's after the hop.
    expect(results.filter((r) => !r.ok)).toEqual([]);
    for (const r of results) expect(r.html).toMatch(/<p>hop<\/p>|<h1>Rendered<\/h1>/);
  }, 60_000);

  it('stops what a render left running before clearing: nothing it writes after its render reaches the next render', async () => {
    // One worker, so each /state render comes right after a /linger render on the same page.
    const pool = await startPool({ concurrency: 1 });
    const seen = [];
    // A late cookie was rare (1 pair in hundreds, on a busy machine): enough pairs to see one now and then.
    for (let i = 0; i < 30; i += 1) {
      expect((await pool.render({ url: `${site.url}/linger` })).html).toContain('lingering');
      seen.push(/<p id="seen">(.*?)<\/p>/.exec((await pool.render({ url: `${site.url}/state` })).html)?.[1]);
    }
    expect(seen).toEqual(Array(30).fill('cookie=[] storage=[] session=[]'));
  }, 60_000);

  it('refuses at once beyond the queue limit; a queued render\'s timeout starts when it starts', async () => {
    const pool = await startPool({ concurrency: 1, queueLimit: 1 });
    const running = pool.render({ url: `${site.url}/slow?ms=1500` });
    await new Promise((r) => setTimeout(r, 100));
    // Waits about 1.5 s for the page, then needs about 1.5 s: within its 2.5 s only if the wait does not count.
    const queued = pool.render({ url: `${site.url}/slow?ms=1500`, timeoutMs: 2500 });
    const refused = await failureOf(pool.render({ url: `${site.url}/page` }));
    expect(refused.failure).toBe('queue_full');
    expect(refused.ms).toBeLessThan(100);
    expect((await running).status).toBe(200);
    expect((await queued).status).toBe(200);
    expect((await pool.render({ url: `${site.url}/page` })).status).toBe(200);
  }, 30_000);

  it('refuses private, loopback and link-local targets unless they are allowed', async () => {
    const pool = await startPool({ concurrency: 1, targets: GUARDED });
    const before = site.hits.length;
    for (const url of [`${site.url}/page`, 'http://localhost:1/', 'http://[::1]/', 'http://169.254.169.254/latest/meta-data/']) {
      expect((await failureOf(pool.render({ url }))).failure).toBe('blocked_target');
    }
    expect(site.hits.length).toBe(before);
    expect((await failureOf(pool.render({ url: 'file:///etc/passwd' }))).failure).toBe('bad_url');
  }, 30_000);

  it('fails a render with the cause when the browser cannot start, and starts one at a later render once it can', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawlhub-no-browser-'));
    const chromiumPath = join(dir, 'chromium');
    const pool = await startPool({ concurrency: 1, chromiumPath });
    const failed = await failureOf(pool.render({ url: `${site.url}/page` }));
    expect(failed).toMatchObject({ failure: 'browser_error', message: expect.stringContaining(`the browser could not start (${chromiumPath})`) });
    expect((await failureOf(pool.render({ url: `${site.url}/page` }))).failure).toBe('browser_error');
    symlinkSync(CHROMIUM, chromiumPath);
    expect((await pool.render({ url: `${site.url}/page` })).html).toContain(SCRIPT_TEXT);
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('replaces a browser after RENDER_RECYCLE_PAGES pages and keeps rendering across it', async () => {
    const pool = await startPool({ concurrency: 1, recyclePages: 3 });
    const pids = new Set<number | null>();
    for (let i = 0; i < 7; i += 1) {
      const r = await pool.render({ url: `${site.url}/page` });
      expect(r.html).toContain(SCRIPT_TEXT);
      pids.add(pool.browserStats()[0].pid);
    }
    expect(pids.size).toBe(3);
    expect(pool.browserStats()).toEqual([{ pid: expect.any(Number), pages: 1 }]);
  }, 60_000);

  it('replaces a browser whose process tree outgrows RENDER_RECYCLE_RSS_MB (checked every 20 pages)', async () => {
    const pool = await startPool({ concurrency: 1, recycleRssMb: 64 });
    const pids: (number | null)[] = [];
    for (let i = 0; i < 21; i += 1) {
      await pool.render({ url: `${site.url}/page` });
      pids.push(pool.browserStats()[0].pid);
    }
    // A headless shell with one page holds more than 64 MB: replaced after page 20, not before.
    expect(new Set(pids.slice(0, 19)).size).toBe(1);
    expect(pids[19]).not.toBe(pids[18]);
    expect(pids[20]).toBe(pids[19]);
  }, 60_000);

  describe('through a proxy that asks for a key', () => {
    let proxy: Server;
    /** The user name of every proxied request, with its path. */
    const keysSeen: string[] = [];
    beforeAll(async () => {
      // A plain HTTP forward proxy answering 407 to requests without credentials, as crawlhub's does.
      proxy = createServer((req, res) => {
        const credentials = req.headers['proxy-authorization'];
        if (!credentials) return void res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
        const target = new URL(req.url!);
        keysSeen.push(`${Buffer.from(credentials.split(' ')[1], 'base64').toString().split(':')[0]} ${target.pathname}`);
        const upstream = httpRequest({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        });
        req.pipe(upstream);
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    });

    afterAll(async () => {
      proxy?.closeAllConnections();
      await new Promise((r) => proxy?.close(r));
    });

    it('gives the proxy each render\'s own key, not the key of an earlier render on the same browser', async () => {
      const pool = await startPool({ concurrency: 1, proxyUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
      for (const key of ['alice', 'bob', 'bob', 'alice']) expect((await pool.render({ url: `${site.url}/page`, proxyKey: key })).html).toContain(SCRIPT_TEXT);
      const renders = ['alice', 'bob', 'bob', 'alice'].flatMap((key) => [`${key} /page`, `${key} /style.css`, `${key} /app.js`]);
      expect([...keysSeen].sort()).toEqual(renders.sort());
    }, 60_000);
  });

  describe('through crawlhub\'s proxy', () => {
    let platform: TestPlatform;
    let proxy: StartedProxy;
    let origin: ProxyOrigin;
    let key: string;
    beforeAll(async () => {
      origin = await startProxyOrigin();
      platform = await startTestPlatform({
        PROXY_PORT: '0',
        ALLOW_PRIVATE_TARGETS: 'true',
        PROXY_EXITS: '127.0.0.2',
        PROXY_THROTTLE_SPACING_MS: '0',
        PROXY_UPSTREAM_CA_FILE: origin.caFile,
        PROXY_STATIC_HOSTS: 'site.test=127.0.0.1',
      });
      key = await platform.createKey([1]);
      proxy = await startProxyApp(platform.core, ['error']);
    }, 60_000);

    afterAll(async () => {
      await proxy?.close();
      await platform?.stop();
      await origin?.close();
      globalAgent.destroy();
    });

    it('sends the browser\'s requests, HTTP and HTTPS, through the proxy with the key', async () => {
      const pool = await startPool({ concurrency: 1, proxyUrl: `http://${key}:@127.0.0.1:${proxy.port}` });
      for (const url of [`${origin.httpUrl}/whoami`, `https://127.0.0.1:${origin.httpsPort}/whoami`]) {
        const r = await pool.render({ url });
        expect(r.status).toBe(200);
        expect(r.headers['x-proxy-slave']).toBe('127.0.0.2');
        // The origin saw the proxy's exit address, not the browser's 127.0.0.1.
        expect(r.html).toContain('"remote":"127.0.0.2"');
      }
    }, 60_000);

    it('aborts a redirect to a private literal when private targets are not allowed (names are left to the proxy)', async () => {
      const pool = await startPool({ concurrency: 1, targets: GUARDED, proxyUrl: `http://${key}:@127.0.0.1:${proxy.port}` });
      const named = `http://site.test:${new URL(site.url).port}`;
      expect((await pool.render({ url: `${named}/page` })).html).toContain(SCRIPT_TEXT);
      const before = site.hits.length;
      const redirected = await failureOf(pool.render({ url: `${named}/redirect?to=${encodeURIComponent(`${site.url}/page`)}` }));
      expect(redirected.failure).toBe('blocked_target');
      expect(site.hits.slice(before)).toEqual(['/redirect']);
    }, 60_000);

    it('gives the proxy the key of the render when one is given', async () => {
      const pool = await startPool({ concurrency: 1, proxyUrl: `http://127.0.0.1:${proxy.port}` });
      const r = await pool.render({ url: `${origin.httpUrl}/whoami`, proxyKey: key });
      expect(r.html).toContain('"remote":"127.0.0.2"');
    }, 60_000);
  });
});
