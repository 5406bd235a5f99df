import { ProxyOrigin } from '../support/proxy-origin';
import { viaProxy } from '../support/proxy-client';
import { EXITS, ProxyCoreFixture, useProxyCoreFixture } from '../support/proxy-core-fixture';

describe('smart proxy: throttling', () => {
  const fixture = useProxyCoreFixture();
  let origin: ProxyOrigin, key: string, proxyWith: ProxyCoreFixture['proxyWith'];
  beforeAll(() => ({ origin, key, proxyWith } = fixture));

  describe('throttling per exit and domain', () => {
    const throttle = { spacingMs: 300, softLimitMs: 500, hardLimitMs: 1000 };
    const throttled = (exits: string[]) => proxyWith((c) => ({ ...c, proxy: { ...c.proxy, exits: exits.map((a) => ({ kind: 'local' as const, localAddress: a })), throttle, maxConnsPerKey: 50 } }));
    const arrivals = (path: string) => origin.hits.filter((h) => h.path === path);

    it('spaces the requests to a domain through one exit, tells from the soft limit on, and refuses past the hard limit', async () => {
      const p = await throttled([EXITS[0]]);
      const path = `/whoami?t=${Date.now()}`;
      const url = `http://site.test:${origin.httpPort}${path}`;
      // Five at once (their order of arrival is the network's): slots at 0, 300, 600 and
      // 900 ms; the last to arrive would wait 1200 ms, past the hard limit.
      const answers = await Promise.all([0, 1, 2, 3, 4].map(() => viaProxy(p, url, { key }).then((a) => ({ ...a, at: Date.now() }))));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 503]);
      const refused = answers.find((a) => a.status === 503)!;
      expect(refused.headers['x-proxy-error']).toBe('/limits/over-domain-limit');
      expect(refused.headers['x-crawlera-error']).toBe('/limits/over-domain-limit');
      // It would have waited 1000–1200 ms (less the time the five took to arrive).
      expect(['1', '2']).toContain(refused.headers['retry-after']);
      const times = arrivals('/whoami').slice(-4).map((h) => h.at);
      // (A request leaves a little after its slot: one gap may look shorter, never the whole span.)
      for (let i = 1; i < 4; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(240);
      expect(times[3] - times[0]).toBeGreaterThanOrEqual(880);
      // The first answer came while a next request would wait past the soft limit; the last one when the queue was short.
      const served = answers.filter((a) => a.status === 200).sort((a, b) => a.at - b.at);
      expect(['1', '2']).toContain(served[0].headers['x-proxy-next-request-in']);
      expect(served[0].headers['x-crawlera-next-request-in']).toBe(served[0].headers['x-proxy-next-request-in']);
      expect(served[3].headers['x-proxy-next-request-in']).toBeUndefined();
    });

    it('tells the wait below the soft limit too when asked with X-Proxy-Debug: next-request-in', async () => {
      const p = await throttled([EXITS[0]]);
      const url = `http://site.test:${origin.httpPort}/whoami?debug-next=${Date.now()}`;
      // The first request leaves at once; a next one would wait its 300 ms spacing, under the 500 ms soft limit.
      const asked = await viaProxy(p, url, { key, headers: { 'X-Proxy-Debug': 'next-request-in' } });
      expect([asked.status, asked.headers['x-proxy-next-request-in'], asked.headers['x-crawlera-next-request-in']]).toEqual([200, '1', '1']);
      // Unasked, the spec's rule: nothing under the soft limit.
      const unasked = await viaProxy(p, url, { key });
      expect(unasked.status).toBe(200);
      expect(unasked.headers['x-proxy-next-request-in']).toBeUndefined();
      // Under the original's prefix too.
      const crawlera = await viaProxy(p, url, { key, headers: { 'X-Crawlera-Debug': 'next-request-in' } });
      expect(crawlera.headers['x-crawlera-next-request-in']).toBe('1');
    });

    it('refuses at once, with Retry-After, a request whose wait would pass its X-Proxy-Max-Wait', async () => {
      const p = await throttled([EXITS[0]]);
      const url = `http://site.test:${origin.httpPort}/whoami?max-wait=${Date.now()}`;
      const first = viaProxy(p, url, { key });
      await new Promise((r) => setTimeout(r, 20));
      const started = Date.now();
      const refused = await viaProxy(p, url, { key, headers: { 'X-Proxy-Max-Wait': '100' } });
      expect(Date.now() - started).toBeLessThan(200);
      expect([refused.status, refused.headers['x-proxy-error'], refused.headers['retry-after']]).toEqual([503, '/limits/over-domain-limit', '1']);
      // It took no slot: a request that accepts the wait gets the second one (300 ms after the first).
      const patient = await viaProxy(p, url, { key, headers: { 'X-Crawlera-Max-Wait': '1000' } });
      expect(patient.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(500);
      expect((await first).status).toBe(200);
    });

    it('keeps the slots of each domain apart', async () => {
      const p = await throttled([EXITS[0]]);
      const slow = Promise.all([0, 1, 2].map(() => viaProxy(p, `http://site.test:${origin.httpPort}/whoami`, { key })));
      const started = Date.now();
      const other = await viaProxy(p, `http://127.0.0.1:${origin.httpPort}/whoami`, { key });
      expect(other.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(250);
      await slow;
    });

    it('sends each request through the exit whose slot comes first', async () => {
      const p = await throttled(EXITS);
      const started = Date.now();
      const answers = await Promise.all(EXITS.map(() => viaProxy(p, `http://site.test:${origin.httpPort}/whoami`, { key })));
      expect(Date.now() - started).toBeLessThan(250);
      expect(answers.map((a) => JSON.parse(a.body).remote).sort()).toEqual([...EXITS].sort());
    });
  });

});
