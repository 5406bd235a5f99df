import { INestApplication } from '@nestjs/common';
import { mkdtempSync } from 'node:fs';
import { createServer as createHttpServer, globalAgent, IncomingHttpHeaders, IncomingMessage, request as httpRequest, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo, connect as netConnect, Socket } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProxyCa } from '@crawlhub/proxy';
import { Core } from '@crawlhub/platform';
import { startFetchApp } from '../../apps/fetch/fetch.app';
import { startProxyApp, StartedProxy } from '../../apps/proxy/proxy.app';
import { startWorkerApp } from '../../apps/worker/worker.app';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';
import { direct, viaProxy, viaTunnel } from '../support/proxy-client';
import { describeIf } from '../support/skip';
import { systemClock } from '@crawlhub/contracts';

/**
 * The SSRF rules (docs/proxy.md "SSRF rules") through the real proxy, with private
 * targets NOT allowed (ALLOW_PRIVATE_TARGETS unset): every spelling of a loopback address
 * is refused with 523 domain_forbidden on every path (absolute form, CONNECT, legacy
 * /fetch, fetch/v2) and never reaches the loopback origin, which counts its hits; the one
 * address of ALLOW_TARGET_ADDRESSES (127.0.0.5) is reached in any spelling.
 */

/** An origin that records every request it gets, on one address (HTTP, and HTTPS with a certificate for that address). */
interface CountingOrigin {
  address: string;
  httpPort: number;
  httpsPort: number;
  hits: string[];
  close(): Promise<void>;
}

async function startCountingOrigin(address: string, ca: ProxyCa): Promise<CountingOrigin> {
  const hits: string[] = [];
  const sockets = new Set<Socket>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ origin: address, url: req.url, host: req.headers.host }));
  };
  const leaf = await ca.leaf(address);
  const servers: Server[] = [createHttpServer(handler), createHttpsServer({ cert: leaf.cert, key: leaf.key }, handler) as unknown as Server];
  for (const s of servers) {
    s.on('connection', (c: Socket) => {
      sockets.add(c);
      c.on('close', () => sockets.delete(c));
    });
    await new Promise<void>((resolve, reject) => s.once('error', reject).listen(0, address, () => resolve()));
  }
  const [httpPort, httpsPort] = servers.map((s) => (s.address() as AddressInfo).port);
  return {
    address,
    httpPort,
    httpsPort,
    hits,
    close: async () => {
      for (const c of sockets) c.destroy();
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    },
  };
}

/** Whether this machine has an IPv6 loopback: the origin on ::1 needs one (without it, the IPv6 spellings are still refused, with nothing to reach). */
const HAS_IPV6_LOOPBACK = Object.values(networkInterfaces()).some((addresses) => addresses?.some((a) => a.internal && a.family === 'IPv6' && a.address === '::1'));
const describeWithIpv6 = describeIf({ met: HAS_IPV6_LOOPBACK, reason: 'HTTPS to an IPv6 literal needs an IPv6 loopback (::1), which this machine does not have' });

/** A raw CONNECT: the status line and headers the proxy answers, and the socket (open when it answered 200). */
function rawConnect(port: number, target: string, key: string): Promise<{ head: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: '127.0.0.1', port }, () => socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${basic(key)}\r\n\r\n`));
    let got = '';
    const onData = (d: Buffer) => {
      got += d.toString('latin1');
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      resolve({ head: got.slice(0, end), socket });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', () => resolve({ head: got, socket }));
  });
}

/** A plain HTTP request sent on `socket` (a tunnel's); the socket is closed after the answer. */
function requestOn(socket: Socket, path: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ createConnection: () => socket, path, headers: { Host: 'target' } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => {
        socket.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The status and X-Proxy-Error of an answer head. */
function statusOf(head: string): [number, string | undefined] {
  return [Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), /\r\nX-Proxy-Error: ([^\r]+)/i.exec(head)?.[1]];
}

describe('smart proxy: SSRF rules, without ALLOW_PRIVATE_TARGETS', () => {
  let platform: TestPlatform;
  let ca: ProxyCa;
  /** Loopback origins: must never be reached. */
  let loop4: CountingOrigin;
  let loop6: CountingOrigin | null = null;
  /** The origin of the one allowed address. */
  let allowed: CountingOrigin;
  let proxy: StartedProxy;
  let key: string;
  const closing: { close(): Promise<unknown> }[] = [];

  /** Every spelling of a loopback address (or of the unspecified address, which the kernel takes for the local host) that reaches `port`. */
  const loopbackAuthorities = (port: number, port6: number) => [
    `127.0.0.1:${port}`,
    `127.1:${port}`,
    `127.0.1:${port}`,
    `0x7f.0.0.1:${port}`,
    `0x7f.1:${port}`,
    `0177.0.0.1:${port}`,
    `0177.1:${port}`,
    `2130706433:${port}`,
    `0x7f000001:${port}`,
    `017700000001:${port}`,
    `0:${port}`,
    `0.0.0.0:${port}`,
    `localhost:${port}`,
    `LocalHost.:${port}`,
    `anything.localhost:${port}`,
    `loop.test:${port}`,
    `[::ffff:127.0.0.1]:${port}`,
    `[0:0:0:0:0:ffff:7f00:1]:${port}`,
    `[0:0:0:0:0:ffff:127.0.0.1]:${port}`,
    `[::ffff:0:127.0.0.1]:${port}`,
    `[::127.0.0.1]:${port}`,
    `[64:ff9b::127.0.0.1]:${port}`,
    `[2002:7f00:1::1]:${port}`,
    `[::1]:${port6}`,
    `[0:0:0:0:0:0:0:1]:${port6}`,
    `[0000::1]:${port6}`,
    `[::0001]:${port6}`,
    `[0000:0000:0000:0000:0000:0000:0000:0001]:${port6}`,
    `[0:0:0:0:0:0:0:0]:${port6}`,
    `[::]:${port6}`,
  ];

  beforeAll(async () => {
    ca = new ProxyCa(mkdtempSync(join(tmpdir(), 'ssrf-origin-ca-')), systemClock);
    await ca.open();
    loop4 = await startCountingOrigin('127.0.0.1', ca);
    if (HAS_IPV6_LOOPBACK) loop6 = await startCountingOrigin('::1', ca);
    allowed = await startCountingOrigin('127.0.0.5', ca);
    platform = await startTestPlatform({
      PROXY_PORT: '0',
      FETCH_PORT: '0',
      // Unset: the default, private targets refused.
      ALLOW_PRIVATE_TARGETS: '',
      ALLOW_TARGET_ADDRESSES: '127.0.0.5',
      PROXY_STATIC_HOSTS: 'loop.test=127.0.0.1,ok.test=127.0.0.5',
      PROXY_UPSTREAM_CA_FILE: join(ca.certsDir, 'ca.pem'),
      PROXY_THROTTLE_SPACING_MS: '0',
      FETCH_DEADLINE_MS: '15000',
    });
    key = await platform.createKey([1], ['browser']);
    proxy = await startProxyApp(platform.core, ['error']);
  }, 60_000);

  afterAll(async () => {
    for (const c of closing.reverse()) await c.close();
    await proxy?.close();
    await platform?.stop();
    for (const o of [loop4, loop6, allowed]) await o?.close();
    globalAgent.destroy();
  });

  const loopHits = () => loop4.hits.length + (loop6?.hits.length ?? 0);
  const authorities = () => loopbackAuthorities(loop4.httpPort, loop6?.httpPort ?? loop4.httpPort);

  it('runs with private targets refused (the platform helper leaves ALLOW_PRIVATE_TARGETS unset here)', () => {
    expect(platform.core.config.allowPrivateTargets).toBe(false);
    expect(platform.core.config.allowTargetAddresses).toEqual(['127.0.0.5']);
  });

  it('absolute form: every spelling of loopback answers 523 domain_forbidden and reaches nothing', async () => {
    const answers: [string, number, string | undefined][] = [];
    for (const authority of authorities()) {
      const r = await viaProxy(proxy.port, `http://${authority}/secret`, { key });
      answers.push([authority, r.status, r.headers['x-proxy-error'] as string | undefined]);
    }
    expect(answers.filter(([, status, code]) => status !== 523 || code !== 'domain_forbidden')).toEqual([]);
    expect(loopHits()).toBe(0);
  });

  it('CONNECT: every spelling of loopback answers 523 domain_forbidden inside the tunnel, plain HTTP and TLS alike, crawlhub\'s own storage API included', async () => {
    const storagePort = new URL(platform.storageUrl).port;
    const proxyCa = (await direct(proxy.port, '/ca.crt', {})).body;
    const targets = [...authorities(), `[::ffff:7f00:1]:${storagePort}`, `0x7f.1:${storagePort}`, `[0:0:0:0:0:0:0:1]:${storagePort}`];
    const answers: [string, string, number, string | undefined][] = [];
    for (const target of targets) {
      const { head, socket } = await rawConnect(proxy.port, target, key);
      expect([target, statusOf(head)[0]]).toEqual([target, 200]);
      const plain = await requestOn(socket, '/secret');
      answers.push([target, 'http', plain.status, plain.headers['x-proxy-error'] as string | undefined]);
      const tls = await viaTunnel(proxy.port, target, '/secret', { key, ca: proxyCa });
      answers.push([target, 'https', tls.status, tls.headers['x-proxy-error'] as string | undefined]);
    }
    expect(answers.filter(([, , status, code]) => status !== 523 || code !== 'domain_forbidden')).toEqual([]);
    expect(loopHits()).toBe(0);
  }, 60_000);

  it('CONNECT: plain HTTP inside an allowed tunnel goes to the tunnel\'s target only, whatever it names', async () => {
    const { head, socket } = await rawConnect(proxy.port, `0x7f.0.0.5:${allowed.httpPort}`, key);
    expect(statusOf(head)[0]).toBe(200);
    // An absolute-form request naming the loopback origin, sent on the tunnel's socket.
    const answer = await requestOn(socket, `http://127.0.0.1:${loop4.httpPort}/pivot`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).origin).toBe('127.0.0.5');
    expect(loopHits()).toBe(0);
  });

  it('legacy GET /fetch: every spelling of loopback answers 523 domain_forbidden and reaches nothing', async () => {
    const answers: [string, number, string | undefined][] = [];
    for (const authority of authorities()) {
      const r = await direct(proxy.port, `/fetch?url=${encodeURIComponent(`http://${authority}/secret`)}`, { Authorization: basic(key) });
      answers.push([authority, r.status, r.headers['x-proxy-error'] as string | undefined]);
    }
    expect(answers.filter(([, status, code]) => status !== 523 || code !== 'domain_forbidden')).toEqual([]);
    expect(loopHits()).toBe(0);
  });

  it('reaches the allowed address in every spelling, on every path', async () => {
    const before = allowed.hits.length;
    for (const authority of [`127.0.0.5:${allowed.httpPort}`, `0x7f.0.0.5:${allowed.httpPort}`, `2130706437:${allowed.httpPort}`, `[::ffff:127.0.0.5]:${allowed.httpPort}`, `ok.test:${allowed.httpPort}`]) {
      const r = await viaProxy(proxy.port, `http://${authority}/open`, { key });
      expect([authority, r.status, JSON.parse(r.body).origin]).toEqual([authority, 200, '127.0.0.5']);
      const legacy = await direct(proxy.port, `/fetch?url=${encodeURIComponent(`http://${authority}/open`)}`, { Authorization: basic(key) });
      expect([authority, legacy.status]).toEqual([authority, 200]);
    }
    expect(allowed.hits.length - before).toBe(10);
  });

  describe('fetch/v2 (the fetch workers go through this proxy)', () => {
    let fetchUrl: string;

    beforeAll(async () => {
      const { context } = await startWorkerApp(platform.core, ['error'], proxy.port);
      closing.push(context);
      const fetchApp: INestApplication = await startFetchApp(platform.core, ['error']);
      closing.push(fetchApp);
      fetchUrl = `http://127.0.0.1:${(fetchApp.getHttpServer().address() as AddressInfo).port}/fetch/v2`;
    }, 60_000);

    const fetchApi = async (url: string) => {
      const res = await fetch(fetchUrl, { method: 'POST', headers: { 'content-type': 'application/json', authorization: basic(key) }, body: JSON.stringify({ url }) });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };

    it('answers every spelling of loopback with the proxy\'s failure domain_forbidden (523) and reaches nothing', async () => {
      const answers = await Promise.all(authorities().map(async (authority) => [authority, await fetchApi(`http://${authority}/secret`)] as const));
      const wrong = answers.filter(([, r]) => !(r.status === 200 && r.json.proxy_status === 'fail' && r.json.crawlera_error === 'domain_forbidden' && r.json.original_status === 523));
      expect(wrong.map(([a, r]) => [a, r.status, r.json.crawlera_error ?? r.json])).toEqual([]);
      expect(loopHits()).toBe(0);
    }, 60_000);

    it('fetches the allowed address in any spelling', async () => {
      const r = await fetchApi(`http://0x7f.0.0.5:${allowed.httpPort}/via-fetch`);
      expect(r.json).toMatchObject({ proxy_status: 'success', original_status: 200 });
      expect(allowed.hits).toContain('GET /via-fetch');
    }, 30_000);
  });

  describeWithIpv6('HTTPS to an allowed IPv6 literal through CONNECT', () => {
    let v6: StartedProxy;
    let proxyCa: string;

    beforeAll(async () => {
      // The same platform, with ::1 allowed as well.
      const core = { ...platform.core, config: { ...platform.core.config, allowTargetAddresses: ['127.0.0.5', '::1'] } } as Core;
      v6 = await startProxyApp(core, ['error']);
      closing.push(v6);
      proxyCa = (await direct(v6.port, '/ca.crt', {})).body;
    }, 30_000);

    it('works, with the proxy\'s certificate for the address, whatever spelling the CONNECT used', async () => {
      const before = loop6!.hits.length;
      for (const authority of [`[::1]:${loop6!.httpsPort}`, `[0:0:0:0:0:0:0:1]:${loop6!.httpsPort}`, `[0000::0001]:${loop6!.httpsPort}`]) {
        const r = await viaTunnel(v6.port, authority, '/over-tls', { key, ca: proxyCa });
        expect([authority, r.status, r.headers['x-proxy-error']]).toEqual([authority, 200, undefined]);
        expect(JSON.parse(r.body)).toMatchObject({ origin: '::1', url: '/over-tls' });
      }
      expect(loop6!.hits.length - before).toBe(3);
      // Still only that address: the other loopback stays refused.
      const refused = await viaTunnel(v6.port, `127.0.0.1:${loop4.httpsPort}`, '/over-tls', { key, ca: proxyCa });
      expect([refused.status, refused.headers['x-proxy-error']]).toEqual([523, 'domain_forbidden']);
      expect(loop4.hits).toEqual([]);
    }, 30_000);
  });
});
