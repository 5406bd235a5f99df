import { createServer, globalAgent, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Core } from '@crawlhub/platform';
import { startProxyApp, StartedProxy } from '../../apps/proxy/proxy.app';
import { startTestPlatform, TestPlatform } from '../support/platform';
import { viaProxy } from '../support/proxy-client';

/**
 * Bans and retries (docs/proxy.md "Bans"), counted at the website: Max-Retries n means
 * exactly n + 1 tries whether or not another exit exists (a retry prefers another exit,
 * else the same one after PROXY_BAN_RETRY_BACKOFF_MS), and a ban's cooldown only changes
 * which exit is preferred: it never leaves a domain without an exit.
 */

interface BanningSite {
  url: string;
  /** Every request: its path and query, the source address, when it arrived. */
  hits: { path: string; remote: string; at: number }[];
  close(): Promise<void>;
}

/** `/deny`: always 403; `/deny-first?n=k&id=x`: 403 to the first k hits of that id, then 200; anything else: 200. */
async function startBanningSite(): Promise<BanningSite> {
  const hits: BanningSite['hits'] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://site');
    hits.push({ path: `${url.pathname}${url.search}`, remote: (req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''), at: Date.now() });
    const sameSoFar = hits.filter((h) => h.path === `${url.pathname}${url.search}`).length;
    const denied = url.pathname === '/deny' || (url.pathname === '/deny-first' && sameSoFar <= Number(url.searchParams.get('n') ?? 1));
    res.writeHead(denied ? 403 : 200, { 'content-type': 'text/plain' }).end(denied ? 'go away' : 'welcome');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const BACKOFF_MS = 150;

describe('smart proxy: bans and retries', () => {
  let platform: TestPlatform;
  let site: BanningSite;
  let proxy: StartedProxy;
  let key: string;
  const started: StartedProxy[] = [];
  let run = 0;
  /** A path of its own for each request, so that hits are counted per request. */
  const fresh = (path: string) => `${path}${path.includes('?') ? '&' : '?'}run=${++run}`;
  const hitsOf = (path: string) => site.hits.filter((h) => h.path === path);

  beforeAll(async () => {
    site = await startBanningSite();
    platform = await startTestPlatform({
      PROXY_PORT: '0',
      ALLOW_PRIVATE_TARGETS: 'true',
      // PROXY_EXITS unset: the default, a single exit. The default ban rules (403, 429, 503) and cooldown (5 minutes).
      PROXY_BAN_RETRY_BACKOFF_MS: String(BACKOFF_MS),
      PROXY_THROTTLE_SPACING_MS: '0',
    });
    key = await platform.createKey([1]);
    proxy = await startProxyApp(platform.core, ['error']);
  }, 60_000);

  afterAll(async () => {
    for (const p of started) await p.close();
    await proxy?.close();
    await platform?.stop();
    await site?.close();
    globalAgent.destroy();
  });

  describe('with the default single exit', () => {
    it.each([
      ['X-Proxy-Max-Retries: 2', { 'X-Proxy-Max-Retries': '2' }, 3],
      ['X-Crawlera-Max-Retries: 0', { 'X-Crawlera-Max-Retries': '0' }, 1],
      ['X-Proxy-Max-Retries: 9 (at most 5)', { 'X-Proxy-Max-Retries': '9' }, 6],
      ['no header (5 retries)', {}, 6],
    ])('%s: a site that always bans gets exactly that many tries, then 503 banned with Retry-After', async (_name, headers, tries) => {
      const path = fresh('/deny');
      const r = await viaProxy(proxy.port, `${site.url}${path}`, { key, headers });
      expect([r.status, r.headers['x-proxy-error'], r.headers['x-crawlera-error']]).toEqual([503, 'banned', 'banned']);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const hits = hitsOf(path);
      expect(hits).toHaveLength(tries);
      // The same exit each time, after the backoff.
      expect(new Set(hits.map((h) => h.remote)).size).toBe(1);
      for (let i = 1; i < hits.length; i++) expect(hits[i].at - hits[i - 1].at).toBeGreaterThanOrEqual(BACKOFF_MS - 10);
    }, 20_000);

    it('a lone 403 is retried and the client gets the page', async () => {
      const path = fresh('/deny-first?n=1');
      const r = await viaProxy(proxy.port, `${site.url}${path}`, { key, headers: { 'X-Proxy-Max-Retries': '2' } });
      expect([r.status, r.body]).toEqual([200, 'welcome']);
      expect(hitsOf(path)).toHaveLength(2);
    });

    it('a ban does not leave the domain without an exit: the next request, of any key, goes out at once', async () => {
      const other = await platform.createKey([1]);
      const denied = fresh('/deny');
      expect((await viaProxy(proxy.port, `${site.url}${denied}`, { key, headers: { 'X-Proxy-Max-Retries': '0' } })).status).toBe(503);
      // The exit is in its 5-minute cooldown for 127.0.0.1, and it is the only one.
      for (const k of [key, other]) {
        const path = fresh('/welcome');
        const r = await viaProxy(proxy.port, `${site.url}${path}`, { key: k, headers: { 'X-Proxy-Max-Retries': '0' } });
        expect([r.status, r.body]).toEqual([200, 'welcome']);
        expect(hitsOf(path)).toHaveLength(1);
      }
    });
  });

  describe('with two exits', () => {
    let two: number;

    beforeAll(async () => {
      const core = { ...platform.core, config: { ...platform.core.config, proxy: { ...platform.core.config.proxy, exits: ['127.0.0.2', '127.0.0.3'].map((a) => ({ kind: 'local' as const, localAddress: a })) } } } as Core;
      const p = await startProxyApp(core, ['error']);
      started.push(p);
      two = p.port;
    });

    it('retries on the other exit at once, then alternates, exactly Max-Retries + 1 tries in all', async () => {
      const path = fresh('/deny');
      const r = await viaProxy(two, `${site.url}${path}`, { key, headers: { 'X-Proxy-Max-Retries': '4' } });
      expect([r.status, r.headers['x-proxy-error']]).toEqual([503, 'banned']);
      const hits = hitsOf(path);
      expect(hits.map((h) => h.remote)).toEqual([hits[0].remote, hits[1].remote, hits[0].remote, hits[1].remote, hits[0].remote]);
      expect(hits[0].remote).not.toBe(hits[1].remote);
      // The second try needed no backoff (another exit was free); the third, on an exit already tried, did.
      expect(hits[1].at - hits[0].at).toBeLessThan(BACKOFF_MS);
      expect(hits[2].at - hits[1].at).toBeGreaterThanOrEqual(BACKOFF_MS - 10);
    }, 20_000);

    it('prefers the exit that is not cooling down for the domain', async () => {
      // Another domain than the test above's (whose bans cooled both exits down for 127.0.0.1).
      const named = site.url.replace('127.0.0.1', 'localhost');
      const first = fresh('/deny-first?n=1');
      const r = await viaProxy(two, `${named}${first}`, { key });
      expect(r.status).toBe(200);
      const [banned, good] = hitsOf(first).map((h) => h.remote);
      expect(banned).not.toBe(good);
      // Every next request to the domain goes through the exit that was not banned.
      for (let i = 0; i < 3; i++) {
        const path = fresh('/welcome');
        expect((await viaProxy(two, `${named}${path}`, { key })).headers['x-proxy-slave']).toBe(good);
      }
    });
  });
});
