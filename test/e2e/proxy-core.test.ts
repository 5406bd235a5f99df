import { execFile } from 'node:child_process';
import { Agent, globalAgent, request } from 'node:http';
import { connect as netConnect, Server as NetServer, Socket } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Core } from '@crawlhub/platform';
import { UsageRecorder } from '@crawlhub/proxy-stats';
import { startProxyApp, StartedProxy } from '../../apps/proxy/proxy.app';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';
import { ProxyOrigin, startProxyOrigin, startSocksProxy, startUpstreamProxy, UpstreamProxy } from '../support/proxy-origin';
import { Answer, direct, viaProxy, viaTunnel } from '../support/proxy-client';
import { itIf, needs } from '../support/skip';

const EXITS = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];

function curl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('curl', ['-sS', '--noproxy', '', ...args], { timeout: 20_000 }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

/** curl -x is what users try first; test/run-tests.sh installs curl when it is missing. */
const itWithCurl = itIf(needs.curl);

describe('smart proxy: core', () => {
  let platform: TestPlatform;
  let origin: ProxyOrigin;
  let upstream: UpstreamProxy;
  let proxy: StartedProxy;
  let key: string;
  let port: number;
  const started: StartedProxy[] = [];

  /** Another proxy on the same platform with some settings changed. */
  async function proxyWith(change: (c: Core['config']) => Core['config']): Promise<number> {
    const core = { ...platform.core, config: change(platform.core.config) } as Core;
    const p = await startProxyApp(core, ['error']);
    started.push(p);
    return p.port;
  }

  beforeAll(async () => {
    origin = await startProxyOrigin();
    upstream = await startUpstreamProxy();
    platform = await startTestPlatform({
      PROXY_PORT: '0',
      ALLOW_PRIVATE_TARGETS: 'true',
      PROXY_EXITS: EXITS.join(','),
      PROXY_UPSTREAM_CA_FILE: origin.caFile,
      PROXY_TIMEOUT_MIN_MS: '1500',
      PROXY_TIMEOUT_MAX_MS: '3000',
      PROXY_MAX_RESPONSE_BYTES: '200000',
      PROXY_BAN_RULES: JSON.stringify([{ status: [503] }, { body: ['captcha-marker'] }]),
      PROXY_BAN_COOLDOWN_MS: '300',
      PROXY_STATIC_HOSTS: 'site.test=127.0.0.1',
      PROXY_DENY_DOMAINS: 'denied.test',
      PROXY_MAX_CONNS_PER_KEY: '3',
      // Throttling has its own tests (with proxies of their own); here it would only slow every test down.
      PROXY_THROTTLE_SPACING_MS: '0',
    });
    key = await platform.createKey([1]);
    proxy = await startProxyApp(platform.core, ['error']);
    port = proxy.port;
  }, 60_000);

  afterAll(async () => {
    for (const p of started) await p.close();
    await proxy?.close();
    await platform?.stop();
    await upstream?.close();
    await origin?.close();
    globalAgent.destroy();
  });

  beforeEach(() => origin.banned.clear());

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

  describe('HTTPS through CONNECT', () => {
    let caPem: string;
    let caFile: string;

    beforeAll(async () => {
      const r = await direct(port, '/ca.crt', {});
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/x-x509-ca-cert');
      caPem = r.body;
      expect(caPem).toMatch(/^-----BEGIN CERTIFICATE-----/);
      caFile = join(tmpdir(), `crawlhub-test-ca-${process.pid}.pem`);
      writeFileSync(caFile, caPem);
    });

    it('persists the CA it serves under PROXY_CA_DIR', () => {
      expect(readFileSync(join(platform.core.config.proxy.caDir, 'certs', 'ca.pem'), 'utf8')).toBe(caPem);
    });

    it('intercepts with its CA: headers, rotation and errors work inside the tunnel', async () => {
      const r = await viaTunnel(port, `site.test:${origin.httpsPort}`, '/whoami', { key, ca: caPem, headers: { 'X-Proxy-Debug': 'ua', 'X-Proxy-UA': 'mobile' } });
      expect(r.status).toBe(200);
      const seen = JSON.parse(r.body);
      expect(EXITS).toContain(seen.remote);
      expect(r.headers['x-proxy-slave']).toBe(seen.remote);
      expect(r.headers['x-proxy-debug-ua']).toMatch(/Mobile/);
      expect(seen.headers['user-agent']).toMatch(/Mobile/);
      expect(Object.keys(seen.headers).filter((h) => /^(x-proxy-|proxy-)/.test(h))).toEqual([]);
      const bad = await viaTunnel(port, `site.test:${origin.httpsPort}`, '/whoami', { key, ca: caPem, headers: { 'X-Proxy-Profile': 'nope' } });
      expect([bad.status, bad.headers['x-proxy-error']]).toEqual([540, 'bad_header']);
      const refused = await viaTunnel(port, '127.0.0.1:1', '/', { key, ca: caPem });
      expect([refused.status, refused.headers['x-proxy-error']]).toEqual([502, 'econnrefused']);
    });

    it('carries each tunnel on the client\'s own connection, not on a loopback connection to a TLS server of its own', async () => {
      // http-mitm-proxy opened a TCP connection to its own TLS server per tunnel and piped every byte through it.
      const sni = (proxy.server as unknown as { proxy: { httpsServer: NetServer } }).proxy.httpsServer;
      const reached: (number | undefined)[] = [];
      const onConnection = (s: Socket) => reached.push(s.remotePort);
      sni.on('connection', onConnection);
      try {
        let clientPort: number | undefined = -1;
        const r = await viaTunnel(port, `site.test:${origin.httpsPort}`, '/whoami', { key, ca: caPem, whileOpen: async (socket) => void (clientPort = socket.localPort) });
        expect([r.status, reached]).toEqual([200, [clientPort]]);
      } finally {
        sni.off('connection', onConnection);
      }
    });

    it('accepts request headers up to 100 KiB inside the tunnel too, 431 above', async () => {
      const r = await viaTunnel(port, `site.test:${origin.httpsPort}`, '/whoami', { key, ca: caPem, headers: { 'X-Big': 'b'.repeat(60 * 1024) } });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body).headers['x-big']).toHaveLength(60 * 1024);
      // The 431 is written, but a client still sending the rest of its headers may see the reset of the closing connection first.
      const refused = await viaTunnel(port, `site.test:${origin.httpsPort}`, '/whoami', { key, ca: caPem, headers: { 'X-Big': 'b'.repeat(120 * 1024) } }).then(
        (a) => a.status,
        (e: Error & { code?: string }) => e.code,
      );
      expect([431, 'ECONNRESET']).toContain(refused);
    });

    it('refuses CONNECT without a key (407)', async () => {
      const r = await viaTunnel(port, `site.test:${origin.httpsPort}`, '/', { key: 'wrong', ca: caPem });
      expect([r.status, r.headers['x-proxy-error']]).toEqual([407, 'bad_proxy_auth']);
    });

    it('verifies the origin\'s certificate unless told otherwise', async () => {
      const strict = await proxyWith((c) => ({ ...c, proxy: { ...c.proxy, upstreamCaFile: null } }));
      const r = await viaTunnel(strict, `site.test:${origin.httpsPort}`, '/whoami', { key, ca: caPem });
      expect([r.status, r.headers['x-proxy-error']]).toEqual([502, 'tls_error']);
      const lax = await proxyWith((c) => ({ ...c, proxy: { ...c.proxy, upstreamCaFile: null, upstreamTlsVerify: false } }));
      expect((await viaTunnel(lax, `site.test:${origin.httpsPort}`, '/whoami', { key, ca: caPem })).status).toBe(200);
    });

    itWithCurl('works with curl -x for http and https (--cacert from /ca.crt)', async () => {
      const h = await curl(['-x', `http://127.0.0.1:${port}`, '-U', `${key}:`, `${origin.httpUrl}/whoami`]);
      expect(h.stderr).toBe('');
      expect(JSON.parse(h.stdout).remote).toMatch(/^127\.0\.0\.[234]$/);
      const s = await curl(['-x', `http://127.0.0.1:${port}`, '-U', `${key}:`, '--cacert', caFile, `https://site.test:${origin.httpsPort}/whoami`, `https://site.test:${origin.httpsPort}/whoami`]);
      expect(s.stderr).toBe('');
      expect(s.stdout.match(/"remote"/g)).toHaveLength(2);
      // Our headers on the CONNECT (curl --proxy-header) apply inside the tunnel.
      const tunnelled = await curl(['-x', `http://127.0.0.1:${port}`, '-U', `${key}:`, '--proxy-header', 'X-Proxy-UA: mobile', '--proxy-header', 'X-Crawlera-Debug: ua', '-D', '-', '--cacert', caFile, `https://site.test:${origin.httpsPort}/whoami`]);
      expect(tunnelled.stderr).toBe('');
      expect(tunnelled.stdout).toMatch(/x-crawlera-debug-ua: .*Mobile/i);
      expect(JSON.parse(tunnelled.stdout.slice(tunnelled.stdout.indexOf('{'))).headers['user-agent']).toMatch(/Mobile/);
      const noKey = await curl(['-x', `http://127.0.0.1:${port}`, '--cacert', caFile, '-o', '/dev/null', '-w', '%{http_connect}', `https://site.test:${origin.httpsPort}/whoami`]);
      expect(noKey.stdout).toMatch(/407/);
    });
  });

  describe('upstream proxy exits', () => {
    it('sends plain HTTP in absolute form and HTTPS through CONNECT to an upstream proxy', async () => {
      const via = await proxyWith((c) => ({ ...c, proxy: { ...c.proxy, exits: [{ kind: 'http', url: upstream.url }] } }));
      const r = await viaProxy(via, `${origin.httpUrl}/whoami`, { key });
      expect(JSON.parse(r.body).remote).toBe('127.0.0.9');
      expect(r.headers['x-proxy-slave']).toBe(upstream.url);
      const ca = readFileSync(join(platform.core.config.proxy.caDir, 'certs', 'ca.pem'), 'utf8');
      const s = await viaTunnel(via, `site.test:${origin.httpsPort}`, '/whoami', { key, ca });
      expect([s.status, s.headers['x-proxy-error']]).toEqual([200, undefined]);
      expect(JSON.parse(s.body).remote).toBe('127.0.0.9');
      expect(upstream.seen).toContain(`CONNECT site.test:${origin.httpsPort}`);
    });

    it('goes through a SOCKS5 proxy and an https:// upstream proxy; a refusal behind SOCKS is econnrefused', async () => {
      const socks = await startSocksProxy('127.0.0.8');
      const tlsUpstream = await startUpstreamProxy('127.0.0.7', await origin.certificateFor('127.0.0.1'));
      try {
        const ca = readFileSync(join(platform.core.config.proxy.caDir, 'certs', 'ca.pem'), 'utf8');
        const viaSocks = await proxyWith((c) => ({ ...c, proxy: { ...c.proxy, exits: [{ kind: 'socks5', url: socks.url }] } }));
        const r = await viaProxy(viaSocks, `http://site.test:${origin.httpPort}/whoami`, { key });
        expect([r.status, JSON.parse(r.body).remote, r.headers['x-proxy-slave']]).toEqual([200, '127.0.0.8', socks.url]);
        const s = await viaTunnel(viaSocks, `site.test:${origin.httpsPort}`, '/whoami', { key, ca });
        expect([s.status, JSON.parse(s.body).remote]).toEqual([200, '127.0.0.8']);
        expect(socks.seen).toEqual([`CONNECT site.test:${origin.httpPort}`, `CONNECT site.test:${origin.httpsPort}`]);
        const refused = await viaProxy(viaSocks, 'http://127.0.0.1:1/', { key });
        expect([refused.status, refused.headers['x-proxy-error']]).toEqual([502, 'econnrefused']);
        const viaTls = await proxyWith((c) => ({ ...c, proxy: { ...c.proxy, exits: [{ kind: 'https', url: tlsUpstream.url }] } }));
        const t = await viaProxy(viaTls, `${origin.httpUrl}/whoami`, { key });
        expect([t.status, JSON.parse(t.body).remote]).toEqual([200, '127.0.0.7']);
        const ts = await viaTunnel(viaTls, `site.test:${origin.httpsPort}`, '/whoami', { key, ca });
        expect([ts.status, JSON.parse(ts.body).remote]).toEqual([200, '127.0.0.7']);
      } finally {
        await socks.close();
        await tlsUpstream.close();
      }
    });
  });

  describe('https:// URLs sent in plain to the proxy', () => {
    it('fetches them over TLS (absolute https:// URI, no CONNECT)', async () => {
      const r = await viaProxy(port, `https://site.test:${origin.httpsPort}/whoami`, { key });
      expect(r.status).toBe(200);
      expect(EXITS).toContain(JSON.parse(r.body).remote);
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
