import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartedProxy } from '../../apps/proxy/proxy.app';
import { TestPlatform } from '../support/platform';
import { ProxyOrigin, startSocksProxy, startUpstreamProxy, UpstreamProxy } from '../support/proxy-origin';
import { direct, openTunnel, viaProxy, viaTunnel } from '../support/proxy-client';
import { itIf, needs } from '../support/skip';
import { EXITS, ProxyCoreFixture, useProxyCoreFixture } from '../support/proxy-core-fixture';

function curl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('curl', ['-sS', '--noproxy', '', ...args], { timeout: 20_000 }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

/** curl -x is what users try first; test/run-tests.sh installs curl when it is missing. */
const itWithCurl = itIf(needs.curl);

describe('smart proxy: HTTPS and upstream exits', () => {
  const fixture = useProxyCoreFixture();
  let platform: TestPlatform, origin: ProxyOrigin, upstream: UpstreamProxy, proxy: StartedProxy, key: string, port: number, proxyWith: ProxyCoreFixture['proxyWith'];
  beforeAll(() => ({ platform, origin, upstream, proxy, key, port, proxyWith } = fixture));

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

    it('applies the CONNECT\'s key and headers to every request inside its tunnel, and answers a CONNECT inside it with 400', async () => {
      const tunnel = await openTunnel(port, `site.test:${origin.httpsPort}`, { key, ca: caPem, connectHeaders: ['X-Proxy-UA: mobile', 'X-Crawlera-Debug: ua'] });
      try {
        for (let i = 0; i < 2; i++) {
          const r = await tunnel.exchange(`GET /whoami HTTP/1.1\r\nHost: site.test:${origin.httpsPort}\r\n\r\n`);
          expect(r.status).toBe(200);
          expect(r.headers['x-crawlera-debug-ua']).toMatch(/Mobile/);
          expect(JSON.parse(r.body).headers['user-agent']).toMatch(/Mobile/);
        }
        const nested = await tunnel.exchange(`CONNECT 127.0.0.1:${origin.httpsPort} HTTP/1.1\r\nHost: 127.0.0.1:${origin.httpsPort}\r\n\r\n`);
        expect([nested.status, nested.headers['x-proxy-error']]).toEqual([400, 'bad_request']);
        await tunnel.closed;
      } finally {
        tunnel.socket.destroy();
      }
    });

    it('resumes a client\'s TLS session in its next tunnel', async () => {
      const first = await openTunnel(port, `site.test:${origin.httpsPort}`, { key, ca: caPem });
      let session: Buffer;
      try {
        // Under TLS 1.3 the ticket arrives after the handshake: it is there once an answer is.
        const ticket = new Promise<Buffer>((resolve) => first.socket.once('session', resolve));
        expect((await first.exchange(`GET /whoami HTTP/1.1\r\nHost: site.test\r\n\r\n`)).status).toBe(200);
        expect(first.socket.isSessionReused()).toBe(false);
        session = await ticket;
      } finally {
        first.socket.destroy();
      }
      const second = await openTunnel(port, `site.test:${origin.httpsPort}`, { key, ca: caPem, session });
      try {
        expect(second.socket.isSessionReused()).toBe(true);
        expect((await second.exchange(`GET /whoami HTTP/1.1\r\nHost: site.test\r\n\r\n`)).status).toBe(200);
      } finally {
        second.socket.destroy();
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

});
