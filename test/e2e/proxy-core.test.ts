import { Agent, request } from 'node:http';
import { connect as netConnect } from 'node:net';
import { UsageRecorder } from '@crawlhub/proxy-stats';
import { StartedProxy } from '../../apps/proxy/proxy.app';
import { basic, TestPlatform } from '../support/platform';
import { ProxyOrigin } from '../support/proxy-origin';
import { Answer, direct, viaProxy } from '../support/proxy-client';
import { EXITS, ProxyCoreFixture, useProxyCoreFixture } from '../support/proxy-core-fixture';

describe('smart proxy: core', () => {
  const fixture = useProxyCoreFixture();
  let platform: TestPlatform, origin: ProxyOrigin, proxy: StartedProxy, key: string, port: number, proxyWith: ProxyCoreFixture['proxyWith'];
  beforeAll(() => ({ platform, origin, proxy, key, port, proxyWith } = fixture));

  describe('authentication', () => {
    it('answers 407 bad_proxy_auth with Proxy-Authenticate without a key or with a wrong one', async () => {
      for (const k of [null, 'not-a-key']) {
        const r = await viaProxy(port, `${origin.httpUrl}/whoami`, { key: k });
        expect(r.status).toBe(407);
        expect(r.headers['proxy-authenticate']).toBe('Basic realm="crawlhub"');
        expect(r.headers['x-proxy-error']).toBe('bad_proxy_auth');
        expect(r.headers['x-crawlera-error']).toBe('bad_proxy_auth');
        expect(r.body).toBe('Incorrect authentication data\n');
      }
      expect(origin.hits.filter((h) => h.path === '/whoami')).toHaveLength(0);
    });

    it('accepts the admin key too', async () => {
      expect((await viaProxy(port, `${origin.httpUrl}/whoami`, { key: platform.adminKey })).status).toBe(200);
    });
  });

  describe('plain HTTP', () => {
    it('forwards, removes our headers and Proxy-Authorization, adds no Via, and names the exit', async () => {
      const r = await viaProxy(port, `${origin.httpUrl}/whoami?x=1`, { key, headers: { 'X-Proxy-Profile': 'pass', 'X-Crawlera-JobId': '1/2/3', 'X-Custom': 'kept', 'User-Agent': 'test-client/1' } });
      expect(r.status).toBe(200);
      const seen = JSON.parse(r.body);
      expect(seen.url).toBe('/whoami?x=1');
      expect(seen.headers['x-custom']).toBe('kept');
      expect(seen.headers['user-agent']).toBe('test-client/1');
      expect(Object.keys(seen.headers).filter((h) => /^(x-proxy-|x-crawlera-|proxy-|via$)/.test(h))).toEqual([]);
      expect(r.headers['x-proxy-version']).toBeDefined();
      expect(r.headers['x-crawlera-version']).toBe(r.headers['x-proxy-version']);
      expect(r.headers['x-proxy-slave']).toBe(seen.remote);
      expect(EXITS).toContain(seen.remote);
      expect(r.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    });

    it('accepts request headers up to 100 KiB (60 KiB pass) and answers 431 above (120 KiB)', async () => {
      const r = await viaProxy(port, `${origin.httpUrl}/whoami`, { key, headers: { 'X-Big': 'a'.repeat(60 * 1024) } });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body).headers['x-big']).toHaveLength(60 * 1024);
      const refused = await viaProxy(port, `${origin.httpUrl}/whoami`, { key, headers: { 'X-Big': 'a'.repeat(120 * 1024) } });
      expect(refused.status).toBe(431);
    });

    it('rotates the exits (round robin): the origin sees each source address', async () => {
      const remotes: string[] = [];
      for (let i = 0; i < 6; i++) {
        const r = await viaProxy(port, `${origin.httpUrl}/whoami`, { key });
        remotes.push(JSON.parse(r.body).remote);
        expect(r.headers['x-proxy-slave']).toBe(remotes[i]);
      }
      expect(new Set(remotes.slice(0, 3))).toEqual(new Set(EXITS));
      expect(remotes.slice(3)).toEqual(remotes.slice(0, 3));
    });

    it('keeps connections alive on both sides', async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const conns: number[] = [];
      const clientSockets = new Set<unknown>();
      for (let i = 0; i < 6; i++) {
        const r = await new Promise<Answer & { socket: unknown }>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port, path: `${origin.httpUrl}/whoami`, agent, headers: { 'Proxy-Authorization': basic(key) } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString(), socket: req.socket }));
          });
          req.on('error', reject);
          req.end();
        });
        clientSockets.add(r.socket);
        conns.push(JSON.parse(r.body).connection);
      }
      agent.destroy();
      expect(clientSockets.size).toBe(1);
      // 3 exits: the second round reuses the first round's connections to the origin.
      expect(conns.slice(3)).toEqual(conns.slice(0, 3));
    });

    it('streams request bodies both ways (3 MB up, 150 kB down)', async () => {
      const body = Buffer.alloc(3 * 1024 * 1024, 7);
      const r = await viaProxy(port, `${origin.httpUrl}/echo`, { key, method: 'POST', body, headers: { 'Content-Type': 'application/octet-stream' } });
      expect(r.status).toBe(200);
      expect(r.headers['x-size']).toBe(String(body.length));
      const down = await viaProxy(port, `${origin.httpUrl}/big?bytes=150000`, { key });
      expect(down.status).toBe(200);
      expect(down.body.length).toBe(150_000);
    });

    it('answers 541 data_error above the response size limit', async () => {
      const r = await viaProxy(port, `${origin.httpUrl}/big?bytes=300000&length=1`, { key });
      expect([r.status, r.headers['x-proxy-error']]).toEqual([541, 'data_error']);
      // Without Content-Length the limit is met while streaming: the connection is cut.
      await expect(viaProxy(port, `${origin.httpUrl}/big?bytes=300000`, { key })).rejects.toThrow();
    });

    it('passes the origin\'s own statuses through', async () => {
      const r = await viaProxy(port, `${origin.httpUrl}/status/404`, { key });
      expect([r.status, r.headers['x-proxy-error'], r.body]).toEqual([404, undefined, 'status 404']);
    });
  });

  it('does not forward WebSocket upgrades (they would bypass the checks)', async () => {
    const before = origin.hits.length;
    const closed = await new Promise<string>((resolve) => {
      const s = netConnect({ host: '127.0.0.1', port }, () => {
        s.write(`GET ${origin.httpUrl}/ws HTTP/1.1\r\nHost: 127.0.0.1:${origin.httpPort}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
      });
      let got = '';
      s.on('data', (d: Buffer) => (got += d.toString('latin1')));
      s.on('close', () => resolve(got));
      s.on('error', () => undefined);
    });
    expect(closed).not.toMatch(/^HTTP\/1\.1 101[\s\S]*\r\n\r\n[^\x81\x88]/);
    expect(origin.hits.length).toBe(before);
  });

  it('survives garbage: bad request lines, a CONNECT tunnel carrying neither TLS nor HTTP, a client that leaves mid-response', async () => {
    const raw = (payload: string[]) =>
      new Promise<string>((resolve) => {
        const s = netConnect({ host: '127.0.0.1', port }, () => {
          let i = 0;
          const next = () => {
            if (i < payload.length) s.write(payload[i++], () => setTimeout(next, 50));
          };
          next();
        });
        let got = '';
        s.on('data', (d: Buffer) => (got += d.toString('latin1')));
        s.on('close', () => resolve(got));
        s.on('error', () => undefined);
        setTimeout(() => s.destroy(), 1000);
      });
    expect(await raw(['\x00\x01garbage\r\n\r\n'])).toMatch(/^(HTTP\/1\.1 400|)/);
    await raw([`CONNECT site.test:${origin.httpsPort} HTTP/1.1\r\nProxy-Authorization: ${basic(key)}\r\n\r\n`, '\x7f\x7f not http at all\r\n\r\n']);
    await raw([`CONNECT site.test:${origin.httpsPort} HTTP/1.1\r\nProxy-Authorization: ${basic(key)}\r\n\r\n`, '\x16\x03\x01\x00\x05hello']);
    await raw([`GET ${origin.httpUrl}/big?bytes=150000 HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(key)}\r\n\r\n`]).catch(() => '');
    expect((await viaProxy(port, `${origin.httpUrl}/whoami`, { key })).status).toBe(200);
  });

  describe('headers', () => {
    it('answers 540 bad_header for unsupported values', async () => {
      for (const [n, v] of [['X-Proxy-Profile', 'tablet'], ['X-Crawlera-UA', 'robot'], ['X-Proxy-Timeout', 'soon'], ['X-Proxy-Max-Retries', 'x']]) {
        const r = await viaProxy(port, `${origin.httpUrl}/whoami`, { key, headers: { [n]: v } });
        expect([n, r.status, r.headers['x-proxy-error']]).toEqual([n, 540, 'bad_header']);
      }
    });

    it('applies profiles: desktop UA by default, mobile header set, pass keeps the client\'s', async () => {
      const ua = async (h: Record<string, string>) => JSON.parse((await viaProxy(port, `${origin.httpUrl}/whoami`, { key, headers: { 'User-Agent': 'mine', ...h } })).body).headers;
      expect((await ua({}))['user-agent']).toMatch(/Windows NT/);
      const mobile = await ua({ 'X-Crawlera-Profile': 'mobile', 'X-Crawlera-Profile-Pass': 'Accept-Language', 'Accept-Language': 'fr' });
      expect(mobile['user-agent']).toMatch(/Mobile/);
      expect(mobile['accept-language']).toBe('fr');
      expect((await ua({ 'X-Proxy-UA': 'pass' }))['user-agent']).toBe('mine');
    });

    it('answers the debug headers under the prefix used', async () => {
      const r = await viaProxy(port, `${origin.httpUrl}/whoami`, { key, headers: { 'X-Crawlera-Debug': 'request-time,ua', 'X-Crawlera-UA': 'mobile' } });
      expect(Number(r.headers['x-crawlera-debug-request-time'])).toBeGreaterThanOrEqual(0);
      expect(r.headers['x-crawlera-debug-ua']).toMatch(/Mobile/);
    });

    it('answers 470 header_auth for a JobId of a project the key does not have, 400 bad_session_id for an unknown session', async () => {
      const r = await viaProxy(port, `${origin.httpUrl}/whoami`, { key, headers: { 'X-Proxy-JobId': '2/1/1' } });
      expect([r.status, r.headers['x-proxy-error']]).toEqual([470, 'header_auth']);
      expect((await viaProxy(port, `${origin.httpUrl}/whoami`, { key, headers: { 'X-Proxy-JobId': '1/1/1' } })).status).toBe(200);
      const s = await viaProxy(port, `${origin.httpUrl}/whoami`, { key, headers: { 'X-Crawlera-Session': '12345' } });
      expect([s.status, s.headers['x-proxy-error'], s.body]).toEqual([400, 'bad_session_id', 'Bad session ID\n']);
    });
  });

  describe('cookies', () => {
    it('keeps the cookies websites set per key and exit (client cookies discarded); Cookies: disable passes the client\'s', async () => {
      const fresh = await platform.createKey([1]);
      const seen: { remote: string; cookie?: string }[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await viaProxy(port, `${origin.httpUrl}/whoami`, { key: fresh, headers: { Cookie: 'mine=1' } });
        const o = JSON.parse(r.body);
        seen.push({ remote: o.remote, cookie: o.headers.cookie });
      }
      expect(seen.slice(0, 3).map((s) => s.cookie)).toEqual([undefined, undefined, undefined]);
      expect(seen[3]).toEqual({ remote: seen[0].remote, cookie: 'a=1; b=2' });
      const other = await platform.createKey([1]);
      const mine = JSON.parse((await viaProxy(port, `${origin.httpUrl}/whoami`, { key: other, headers: { Cookie: 'mine=1' } })).body);
      expect(mine.headers.cookie).toBeUndefined();
      for (let i = 0; i < 3; i++) {
        const d = JSON.parse((await viaProxy(port, `${origin.httpUrl}/whoami`, { key: fresh, headers: { Cookie: 'mine=1', 'X-Crawlera-Cookies': 'disable' } })).body);
        expect(d.headers.cookie).toBe('mine=1');
      }
    });
  });

  describe('errors from their real causes', () => {
    it('nxdomain for special-use names, without DNS', async () => {
      for (const host of ['nothing.invalid', 'unknown.test']) {
        const r = await viaProxy(port, `http://${host}/`, { key });
        expect([host, r.status, r.headers['x-proxy-error'], r.body]).toEqual([host, 502, 'nxdomain', 'Error looking up domain\n']);
      }
    });

    it('localhost names reach loopback; configured .test names their address', async () => {
      expect((await viaProxy(port, `http://localhost:${origin.httpPort}/whoami`, { key })).status).toBe(200);
      expect((await viaProxy(port, `http://site.test:${origin.httpPort}/whoami`, { key })).status).toBe(200);
    });

    it('domain_forbidden for the deny-list, and for private targets unless allowed (SSRF guard)', async () => {
      const r = await viaProxy(port, `http://www.denied.test:${origin.httpPort}/whoami`, { key });
      expect([r.status, r.headers['x-proxy-error']]).toEqual([523, 'domain_forbidden']);
      const guarded = await proxyWith((c) => ({ ...c, allowPrivateTargets: false }));
      for (const url of [`${origin.httpUrl}/whoami`, `http://localhost:${origin.httpPort}/`, 'http://169.254.169.254/latest/meta-data', 'http://[::1]:1/', 'http://10.0.0.1/']) {
        const g = await viaProxy(guarded, url, { key });
        expect([url, g.status, g.headers['x-proxy-error']]).toEqual([url, 523, 'domain_forbidden']);
      }
    });

    it('econnrefused, econnreset, socket_closed_remotely, timeout', async () => {
      const closed = await viaProxy(port, 'http://127.0.0.1:1/', { key });
      expect([closed.status, closed.headers['x-proxy-error']]).toEqual([502, 'econnrefused']);
      const reset = await viaProxy(port, `${origin.httpUrl}/reset`, { key });
      expect([reset.status, reset.headers['x-proxy-error']]).toEqual([502, 'econnreset']);
      const hangup = await viaProxy(port, `${origin.httpUrl}/hangup`, { key });
      expect([hangup.status, hangup.headers['x-proxy-error']]).toEqual([502, 'socket_closed_remotely']);
      const slow = await viaProxy(port, `${origin.httpUrl}/slow?ms=5000`, { key, headers: { 'X-Proxy-Timeout': '1' } });
      expect([slow.status, slow.headers['x-proxy-error'], slow.body]).toEqual([504, 'timeout', 'Connection timed out\n']);
      // The timeout applies per chunk once the response streams: the connection is cut.
      // (No-Bancheck: else the body-marker rule reads the start of the body first, and times out with 504.)
      await expect(viaProxy(port, `${origin.httpUrl}/stall`, { key, headers: { 'X-Proxy-No-Bancheck': '1' } })).rejects.toThrow();
      const stalled = await viaProxy(port, `${origin.httpUrl}/stall`, { key });
      expect([stalled.status, stalled.headers['x-proxy-error']]).toEqual([504, 'timeout']);
    });

    it('too_many_conns above the per-key limit (3 here), serverbusy above the global one', async () => {
      const slow = [1, 2, 3].map(() => viaProxy(port, `${origin.httpUrl}/slow?ms=400`, { key }));
      await new Promise((r) => setTimeout(r, 100));
      const over = await viaProxy(port, `${origin.httpUrl}/whoami`, { key });
      expect([over.status, over.headers['x-proxy-error']]).toEqual([429, 'too_many_conns']);
      expect((await Promise.all(slow)).map((r) => r.status)).toEqual([200, 200, 200]);
      const busy = await proxyWith((c) => ({ ...c, proxy: { ...c.proxy, maxOutstanding: 1 } }));
      const one = viaProxy(busy, `${origin.httpUrl}/slow?ms=300`, { key });
      await new Promise((r) => setTimeout(r, 100));
      const b = await viaProxy(busy, `${origin.httpUrl}/whoami`, { key: platform.adminKey });
      expect([b.status, b.headers['x-proxy-error']]).toEqual([503, 'serverbusy']);
      expect((await one).status).toBe(200);
    });

    it('noslaves when every exit is down', async () => {
      const dead = await proxyWith((c) => ({ ...c, proxy: { ...c.proxy, exits: [{ kind: 'http', url: 'http://127.0.0.1:1' }, { kind: 'socks5', url: 'socks5://127.0.0.1:1' }] } }));
      const r = await viaProxy(dead, `${origin.httpUrl}/whoami`, { key });
      expect([r.status, r.headers['x-proxy-error'], r.body]).toEqual([503, 'noslaves', 'No available proxies\n']);
      // A source address this machine does not have (TEST-NET-1) fails on its own side: the
      // request moves to the next exit, and the failed one is left out afterwards.
      const mixed = await proxyWith((c) => ({ ...c, proxy: { ...c.proxy, exits: [{ kind: 'local', localAddress: '192.0.2.1' }, { kind: 'local', localAddress: '127.0.0.3' }] } }));
      for (let i = 0; i < 3; i++) {
        const m = await viaProxy(mixed, `${origin.httpUrl}/whoami`, { key });
        expect([m.status, m.headers['x-proxy-slave'], JSON.parse(m.body).remote]).toEqual([200, '127.0.0.3', '127.0.0.3']);
      }
    });
  });

  describe('bans', () => {
    it('retries a ban on another exit', async () => {
      origin.banned.add('127.0.0.2');
      origin.banned.add('127.0.0.3');
      for (let i = 0; i < 3; i++) {
        const r = await viaProxy(port, `${origin.httpUrl}/guarded`, { key });
        expect(r.status).toBe(200);
        expect(r.headers['x-proxy-slave']).toBe('127.0.0.4');
      }
    });

    it('answers 503 banned with Retry-After when every exit is banned, and bans by body markers', async () => {
      EXITS.forEach((e) => origin.banned.add(e));
      const r = await viaProxy(port, `${origin.httpUrl}/guarded?captcha`, { key });
      expect([r.status, r.headers['x-proxy-error'], r.headers['x-crawlera-error']]).toEqual([503, 'banned', 'banned']);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      await new Promise((res) => setTimeout(res, 350));
    });

    it('Max-Retries limits the retries; No-Bancheck passes the ban through', async () => {
      EXITS.forEach((e) => origin.banned.add(e));
      const before = origin.hits.length;
      const r = await viaProxy(port, `${origin.httpUrl}/guarded`, { key, headers: { 'X-Proxy-Max-Retries': '1' } });
      expect(r.status).toBe(503);
      expect(origin.hits.length - before).toBe(2);
      await new Promise((res) => setTimeout(res, 350));
      const passed = await viaProxy(port, `${origin.httpUrl}/guarded`, { key, headers: { 'X-Crawlera-No-Bancheck': '1' } });
      expect([passed.status, passed.headers['x-proxy-error'], passed.body]).toEqual([503, undefined, 'go away']);
      await new Promise((res) => setTimeout(res, 350));
    });
  });

  describe('accounting', () => {
    it('reports every request to the usage statistics: clean, failed, ban', async () => {
      const recorder = proxy.context.get(UsageRecorder);
      const finished = jest.spyOn(recorder, 'finished');
      const startedSpy = jest.spyOn(recorder, 'started');
      try {
        await viaProxy(port, `${origin.httpUrl}/status/404`, { key });
        await viaProxy(port, 'http://x.invalid/', { key });
        EXITS.forEach((e) => origin.banned.add(e));
        await viaProxy(port, `${origin.httpUrl}/guarded`, { key });
        await new Promise((r) => setTimeout(r, 50));
        const calls = finished.mock.calls.map(([o]) => o);
        expect(calls.map((o) => o.outcome)).toEqual(['clean', 'failed', 'ban']);
        expect(new Set(calls.map((o) => o.user)).size).toBe(1);
        expect(calls[0].user).toMatch(/^key-/);
        expect(calls[0].bytes).toBeGreaterThan(0);
        expect(startedSpy).toHaveBeenCalledTimes(3);
      } finally {
        finished.mockRestore();
        startedSpy.mockRestore();
        await new Promise((r) => setTimeout(r, 350));
      }
    });
  });

  describe('regions', () => {
    it('sends X-Proxy-Region requests through the exits of that region only; an unknown region is a bad header', async () => {
      const labelled: [string, string][] = [[EXITS[0], 'us'], [EXITS[1], 'de'], [EXITS[2], 'us']];
      const p = await proxyWith((c) => ({ ...c, proxy: { ...c.proxy, exits: labelled.map(([a, region]) => ({ kind: 'local' as const, localAddress: a, region })) } }));
      const seen = async (region: string) => {
        const remotes = new Set<string>();
        for (let i = 0; i < 4; i++) {
          const r = await viaProxy(p, `${origin.httpUrl}/whoami`, { key, headers: { 'X-Crawlera-Region': region } });
          expect(r.status).toBe(200);
          remotes.add(JSON.parse(r.body).remote);
        }
        return [...remotes].sort();
      };
      expect(await seen('us')).toEqual([EXITS[0], EXITS[2]]);
      expect(await seen('DE')).toEqual([EXITS[1]]);
      expect(await seen('auto')).toEqual([...EXITS].sort());
      const unknown = await viaProxy(p, `${origin.httpUrl}/whoami`, { key, headers: { 'X-Proxy-Region': 'fr' } });
      expect([unknown.status, unknown.headers['x-proxy-error'], unknown.body]).toEqual([540, 'bad_header', 'Bad header value: X-Proxy-Region: no exit in region fr\n']);
    });
  });

  describe('legacy GET /fetch', () => {
    it('fetches a URL with headers, with the key as Authorization', async () => {
      const url = encodeURIComponent(`${origin.httpUrl}/whoami`);
      const headers = encodeURIComponent('X-A:1;X-Proxy-UA:pass;User-Agent:legacy');
      const r = await direct(port, `/fetch?url=${url}&headers=${headers}`, { Authorization: basic(key) });
      expect(r.status).toBe(200);
      const seen = JSON.parse(r.body);
      expect(seen.headers['x-a']).toBe('1');
      expect(seen.headers['user-agent']).toBe('legacy');
      expect(r.headers['x-proxy-slave']).toBe(seen.remote);
      const noKey = await direct(port, `/fetch?url=${url}`, {});
      expect([noKey.status, noKey.headers['x-proxy-error']]).toEqual([407, 'bad_proxy_auth']);
      expect((await direct(port, '/fetch?url=ftp%3A%2F%2Fx', { Authorization: basic(key) })).status).toBe(400);
      expect((await direct(port, '/elsewhere', {})).status).toBe(404);
    });
  });
});
