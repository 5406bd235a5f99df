import { createServer as createHttpServer, IncomingMessage, request as httpRequest, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo, connect, createServer as createNetServer, Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProxyCa } from '@crawlhub/proxy';
import { systemClock } from '@crawlhub/contracts';

/**
 * A website on 127.0.0.1 for the proxy tests, over HTTP and HTTPS (its own CA, in
 * `caFile`; its certificate names 127.0.0.1, localhost and site.test). It reports what it
 * saw, so tests can prove rotation and header handling:
 * - `/whoami`: JSON {remote, method, url, headers, connection} (remote address, and the
 *   number of the connection the request came on: kept-alive requests share it)
 * - `/echo`: the request body back (length and a checksum in headers)
 * - `/status/<n>`: answers status n
 * - `/guarded`: 503 for remote addresses in `banned`, else 200 (with `?captcha`, 200 with
 *   a body starting with "captcha-marker" instead of the 503)
 * - `/slow?ms=`: headers after ms; `/stall`: headers and a first chunk, then nothing
 * - `/big?bytes=`: that many bytes, streamed without Content-Length unless `&length=1`
 * - `/reset`: the connection is reset; `/hangup`: closed without an answer
 */
export interface ProxyOrigin {
  httpUrl: string;
  httpsPort: number;
  httpPort: number;
  caFile: string;
  banned: Set<string>;
  /** Every request: the source address it came from, its path, and when it arrived (ms). */
  hits: { remote: string; path: string; at: number }[];
  /** A certificate for `host` signed by the origin's CA (for other TLS servers of a test). */
  certificateFor(host: string): Promise<{ cert: string; key: string }>;
  close(): Promise<void>;
}

export async function startProxyOrigin(): Promise<ProxyOrigin> {
  const ca = new ProxyCa(mkdtempSync(join(tmpdir(), 'origin-ca-')), systemClock);
  await ca.open();
  const banned = new Set<string>();
  const hits: ProxyOrigin['hits'] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const connectionNumbers = new WeakMap<Socket, number>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://origin');
    const remote = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    hits.push({ remote, path: url.pathname, at: Date.now() });
    const json = (status: number, o: unknown) => {
      const body = JSON.stringify(o);
      res.writeHead(status, { 'content-type': 'application/json', 'set-cookie': ['a=1; Path=/', 'b=2; Path=/'] }).end(body);
    };
    if (url.pathname === '/whoami') {
      return json(200, { remote, method: req.method, url: req.url, headers: req.headers, rawHeaders: req.rawHeaders, connection: connectionNumbers.get(req.socket) });
    }
    if (url.pathname === '/echo') {
      let size = 0;
      let sum = 0;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => {
        size += c.length;
        for (const b of c) sum = (sum + b) % 65_521;
        if (size <= 65_536) chunks.push(c);
      });
      req.on('end', () => res.writeHead(200, { 'x-size': String(size), 'x-sum': String(sum) }).end(size <= 65_536 ? Buffer.concat(chunks) : 'big'));
      return;
    }
    let m = /^\/status\/(\d{3})$/.exec(url.pathname);
    if (m) return void res.writeHead(Number(m[1]), { 'content-type': 'text/plain' }).end(`status ${m[1]}`);
    if (url.pathname === '/guarded') {
      if (banned.has(remote)) {
        if (url.searchParams.has('captcha')) return void res.writeHead(200, { 'content-type': 'text/html' }).end(`captcha-marker: prove you are human${'.'.repeat(100)}`);
        return void res.writeHead(503, { 'content-type': 'text/plain' }).end('go away');
      }
      return json(200, { remote });
    }
    if (url.pathname === '/slow') {
      const t = setTimeout(() => json(200, { remote }), Number(url.searchParams.get('ms') ?? 1000));
      res.on('close', () => clearTimeout(t));
      return;
    }
    if (url.pathname === '/stall') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first chunk\n');
      return;
    }
    if (url.pathname === '/big') {
      const total = Number(url.searchParams.get('bytes') ?? 1000);
      res.writeHead(200, { 'content-type': 'application/octet-stream', ...(url.searchParams.has('length') ? { 'content-length': String(total) } : {}) });
      let sent = 0;
      const chunk = Buffer.alloc(16_384, 120);
      const pump = () => {
        while (sent < total) {
          const n = Math.min(chunk.length, total - sent);
          sent += n;
          if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
        }
        res.end();
      };
      return pump();
    }
    if (url.pathname === '/reset') return void req.socket.resetAndDestroy();
    if (url.pathname === '/hangup') return void req.socket.end();
    m = null;
    res.writeHead(404).end('not found');
  };
  const track = (s: Socket) => {
    connectionNumbers.set(s, ++connections);
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  // Headers as large as the proxy accepts (100 KiB) reach the handler.
  const limits = { maxHeaderSize: 128 * 1024 };
  const http: Server = createHttpServer(limits, handler);
  http.on('connection', track);
  const leaf = await ca.leaf('127.0.0.1');
  const https = createHttpsServer({ ...limits, cert: leaf.cert, key: leaf.key, SNICallback: (name, cb) => ca.leaf(name).then((l) => cb(null, require('node:tls').createSecureContext({ cert: l.cert, key: l.key })), (e: Error) => cb(e)) }, handler);
  https.on('secureConnection', (s: Socket) => track(s));
  https.on('connection', (s: Socket) => sockets.add(s));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  await new Promise<void>((r) => https.listen(0, '127.0.0.1', () => r()));
  const httpPort = (http.address() as AddressInfo).port;
  const httpsPort = (https.address() as AddressInfo).port;
  return {
    httpUrl: `http://127.0.0.1:${httpPort}`,
    httpPort,
    httpsPort,
    caFile: join(ca.certsDir, 'ca.pem'),
    banned,
    hits,
    certificateFor: (host) => ca.leaf(host),
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all([new Promise((r) => http.close(r)), new Promise((r) => https.close(r))]);
    },
  };
}

/**
 * A plain upstream HTTP proxy on loopback (absolute-form requests and CONNECT), for the
 * proxy's upstream exits. It connects out from `localAddress`, so the origin sees it.
 */
export interface UpstreamProxy {
  url: string;
  seen: string[];
  close(): Promise<void>;
}

/** Test names (.test, localhost) are 127.0.0.1 here; other names are refused, never resolved. */
function loopbackOnly(host: string): string | null {
  if (/^[\d.]+$/.test(host)) return host;
  return host === 'localhost' || host.endsWith('.test') || host.endsWith('.localhost') ? '127.0.0.1' : null;
}

export async function startUpstreamProxy(localAddress = '127.0.0.9', tls?: { cert: string; key: string }): Promise<UpstreamProxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400).end();
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const address = loopbackOnly(url.hostname);
    if (address === null) return void res.writeHead(502).end();
    const out = httpRequest({ host: address, port: url.port || 80, path: `${url.pathname}${url.search}`, method: req.method, headers, localAddress }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  };
  const server: Server = tls ? (createHttpsServer(tls, handler) as unknown as Server) : createHttpServer(handler);
  server.on(tls ? 'secureConnection' : 'connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const address = loopbackOnly(host);
    if (address === null) return void client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    const up = connect({ host: address, port: Number(port), localAddress }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    sockets.add(up);
    up.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * A SOCKS5 server on loopback (no authentication, CONNECT only), connecting out from
 * `localAddress`. Names are mapped like the upstream proxy's (never resolved).
 */
export async function startSocksProxy(localAddress = '127.0.0.8'): Promise<UpstreamProxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createNetServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    let buf = Buffer.alloc(0);
    let stage: 'greeting' | 'request' | 'done' = 'greeting';
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (stage === 'greeting') {
        if (buf.length < 2 || buf.length < 2 + buf[1]) return;
        buf = buf.subarray(2 + buf[1]);
        client.write(Buffer.from([5, 0]));
        stage = 'request';
      }
      if (stage === 'request') {
        if (buf.length < 5) return;
        const type = buf[3];
        const addrLen = type === 1 ? 4 : type === 4 ? 16 : 1 + buf[4];
        if (buf.length < 4 + addrLen + 2) return;
        let host: string;
        if (type === 1) host = [...buf.subarray(4, 8)].join('.');
        else if (type === 3) host = buf.subarray(5, 5 + buf[4]).toString();
        else host = '::1';
        const port = buf.readUInt16BE(4 + addrLen);
        const rest = buf.subarray(4 + addrLen + 2);
        stage = 'done';
        client.off('data', onData);
        seen.push(`CONNECT ${host}:${port}`);
        const reply = (code: number) => Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);
        const address = loopbackOnly(host);
        if (address === null) return void client.end(reply(4));
        const up = connect({ host: address, port, localAddress }, () => {
          client.write(reply(0));
          if (rest.length) up.write(rest);
          up.pipe(client);
          client.pipe(up);
        });
        sockets.add(up);
        up.on('close', () => sockets.delete(up));
        up.on('error', (e: Error & { code?: string }) => client.end(reply(e.code === 'ECONNREFUSED' ? 5 : 1)));
      }
    };
    client.on('data', onData);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `socks5://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
