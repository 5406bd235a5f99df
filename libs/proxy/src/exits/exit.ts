import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { Readable, Writable } from 'node:stream';
import { SocksClient } from 'socks';
import type { ProxyExitConfig } from '@crawlhub/config';
import { UpstreamPool, UpstreamRequest as PlainUpstreamRequest } from '../wire/upstream';

/**
 * A request on its way to a website, as the forwarder drives it: Node's ClientRequest (https
 * and upstream-proxy exits) or the plain-HTTP data path's request (plain http through a local
 * exit). Emits `response` (an UpstreamResponse), or `error`.
 */
export interface UpstreamRequest extends Writable {
  /** Whether it went out on a kept-alive connection (a hang-up there is retried once). */
  readonly reusedSocket: boolean;
}

/** A website's response head and its body stream (Node's IncomingMessage, or the plain data path's). */
export interface UpstreamResponse extends Readable {
  readonly statusCode?: number;
  readonly statusMessage?: string;
  readonly rawHeaders: string[];
  readonly headers: { 'set-cookie'?: string[]; 'content-length'?: string };
  /** The whole body has arrived (what is not read yet waits in the stream's buffer). */
  readonly complete: boolean;
}

/** Where a request goes: the website, its resolved address (checked by the SSRF guard). */
export interface Target {
  scheme: 'http' | 'https';
  /** Normalised host name (or IP literal). */
  host: string;
  port: number;
  /** The address the guard checked; local exits connect to it (no second lookup). */
  address: string;
  /** Origin-form path with query. */
  path: string;
}

/** How origins' certificates are checked. */
export interface TlsTrust {
  rejectUnauthorized: boolean;
  /**
   * Node's roots plus extra CAs, built once; undefined: Node's defaults. (A context, not a
   * `ca` list: https agents put `ca` into their pool key, built again for every request.)
   */
  secureContext?: tls.SecureContext;
}

/** An error of the exit itself (upstream proxy down, source address unusable): the exit is set aside. */
export class ExitFailure extends Error {
  readonly code: string;
  constructor(override readonly cause: Error & { code?: string }) {
    super(`exit failed: ${cause.message}`);
    this.code = cause.code ?? 'EXIT';
  }
}

const KEEP_ALIVE = { keepAlive: true, keepAliveMsecs: 1000, maxFreeSockets: 256, scheduling: 'lifo' as const };

type Callback = (err: Error | null, socket?: net.Socket) => void;
type AgentCallback = (err: Error | null, stream: import('node:stream').Duplex) => void;

function hostPort(u: URL, defaultPort: number): { host: string; port: number } {
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port ? Number(u.port) : defaultPort };
}

function proxyAuthOf(u: URL): string | null {
  if (!u.username && !u.password) return null;
  return `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`;
}

/** Opens a TCP (or TLS, for https:// proxies) connection to an upstream proxy and asks it to CONNECT. */
function httpTunnel(proxy: URL, trust: TlsTrust, host: string, port: number, cb: Callback): void {
  const p = hostPort(proxy, proxy.protocol === 'https:' ? 443 : 80);
  let done = false;
  const finish = (err: Error | null, s?: net.Socket) => {
    if (done) return;
    done = true;
    cb(err, s);
  };
  const socket: net.Socket =
    proxy.protocol === 'https:'
      ? tls.connect({ host: p.host, port: p.port, servername: net.isIP(p.host) ? undefined : p.host, rejectUnauthorized: trust.rejectUnauthorized, secureContext: trust.secureContext })
      : net.connect({ host: p.host, port: p.port });
  let connected = false;
  socket.once(proxy.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
    connected = true;
    const auth = proxyAuthOf(proxy);
    const target = net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
    socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth ? `Proxy-Authorization: ${auth}\r\n` : ''}\r\n`);
  });
  let head = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) {
      if (head.length > 16_384) finish(Object.assign(new Error('upstream proxy sent an oversized CONNECT answer'), { code: 'ECONNRESET' }));
      return;
    }
    socket.off('data', onData);
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head.toString('latin1'))?.[1] ?? 0);
    if (status !== 200) {
      socket.destroy();
      // The upstream proxy could not reach the website: reported as the website refusing.
      return finish(Object.assign(new Error(`upstream proxy answered ${status} to CONNECT`), { code: status === 504 ? 'ETIMEDOUT' : 'ECONNREFUSED' }));
    }
    const rest = head.subarray(end + 4);
    if (rest.length) socket.unshift(rest);
    socket.removeListener('error', onError);
    finish(null, socket);
  };
  const onError = (e: Error) => {
    socket.destroy();
    finish(connected ? e : new ExitFailure(e));
  };
  socket.on('data', onData);
  socket.on('error', onError);
}

function socksTunnel(proxy: URL, host: string, port: number, cb: Callback): void {
  const p = hostPort(proxy, 1080);
  SocksClient.createConnection({
    proxy: { host: p.host, port: p.port, type: 5, userId: proxy.username ? decodeURIComponent(proxy.username) : undefined, password: proxy.password ? decodeURIComponent(proxy.password) : undefined },
    command: 'connect',
    destination: { host, port },
    timeout: 30_000,
  }).then(
    (info) => cb(null, info.socket),
    (e: Error) => {
      const m = /rejected connection - (\w+)/.exec(e.message);
      if (!m) return cb(new ExitFailure(e));
      const code = { ConnectionRefused: 'ECONNREFUSED', HostUnreachable: 'EHOSTUNREACH', NetworkUnreachable: 'ENETUNREACH', TTLExpired: 'ETIMEDOUT' }[m[1]] ?? 'ECONNRESET';
      cb(Object.assign(new Error(e.message), { code }));
    },
  );
}

function wrapTls(socket: net.Socket, options: tls.ConnectionOptions, cb: Callback): void {
  const secure = tls.connect({ ...options, socket });
  const onError = (e: Error) => cb(e);
  secure.once('error', onError);
  secure.once('secureConnect', () => {
    secure.off('error', onError);
    cb(null, secure);
  });
}

/** An http.Agent whose connections go through a tunnel (CONNECT or SOCKS). */
class TunnelHttpAgent extends http.Agent {
  constructor(private readonly open: (host: string, port: number, cb: Callback) => void) {
    super(KEEP_ALIVE);
  }
  override createConnection(options: http.ClientRequestArgs, cb?: AgentCallback): undefined {
    this.open(options.host ?? 'localhost', Number(options.port), cb as unknown as Callback);
    return undefined;
  }
}

/** An https.Agent whose TLS connections run inside a tunnel (CONNECT or SOCKS). */
class TunnelHttpsAgent extends https.Agent {
  constructor(
    private readonly open: (host: string, port: number, cb: Callback) => void,
    trust: TlsTrust,
  ) {
    super({ ...KEEP_ALIVE, rejectUnauthorized: trust.rejectUnauthorized });
    this.secureContext = trust.secureContext;
  }
  private readonly secureContext?: tls.SecureContext;
  override createConnection(options: https.RequestOptions, callback?: AgentCallback): undefined {
    const cb = callback as unknown as Callback;
    this.open(options.host ?? 'localhost', Number(options.port), (err, socket) => {
      if (err || !socket) return cb(err ?? new Error('no socket'));
      wrapTls(socket, { servername: options.servername ?? undefined, rejectUnauthorized: options.rejectUnauthorized, secureContext: this.secureContext }, cb);
    });
    return undefined;
  }
}

/**
 * One outgoing exit of the pool: how requests leave (its agents, kept alive), its health
 * and its ban state per domain.
 */
export class Exit {
  /** Until when it is left out after a failure of its own. */
  unhealthyUntil = 0;
  /** When it was last picked (least recently used goes next). */
  lastUsed = 0;
  /** Domain -> until when it is banned there. */
  readonly bannedUntil = new Map<string, number>();
  /** Domain -> when the next request to it may leave through this exit (throttling; absent: now). */
  readonly nextSlot = new Map<string, number>();
  /** Through an upstream or SOCKS proxy; null for a local exit, whose requests use `pool`. */
  private readonly httpAgent: http.Agent | null;
  private readonly httpsAgent: https.Agent | null;
  /** A local exit's kept-alive connections, plain and TLS (the raw data path, wire/upstream.ts); null for proxy exits. */
  private readonly pool: UpstreamPool | null;
  private readonly proxyUrl: URL | null;

  constructor(
    readonly id: string,
    readonly config: ProxyExitConfig,
    private readonly trust: TlsTrust,
  ) {
    if (config.kind === 'local') {
      this.proxyUrl = null;
      this.httpAgent = null;
      this.pool = new UpstreamPool(config.localAddress ?? undefined);
      this.httpsAgent = null;
    } else if (config.kind === 'socks5') {
      const u = new URL(config.url);
      this.proxyUrl = u;
      const open = (h: string, p: number, cb: Callback) => socksTunnel(u, h, p, cb);
      this.httpAgent = new TunnelHttpAgent(open);
      this.pool = null;
      this.httpsAgent = new TunnelHttpsAgent(open, trust);
    } else {
      const u = new URL(config.url);
      this.proxyUrl = u;
      // Plain http:// sites go to the upstream proxy in absolute form; https:// ones through CONNECT.
      this.httpAgent = config.kind === 'https' ? new https.Agent({ ...KEEP_ALIVE, rejectUnauthorized: trust.rejectUnauthorized }) : new http.Agent(KEEP_ALIVE);
      this.pool = null;
      this.httpsAgent = new TunnelHttpsAgent((h, p, cb) => httpTunnel(u, trust, h, p, cb), trust);
    }
  }

  /** Whether a request error came from the exit itself rather than from the website. */
  isOwnFailure(e: unknown): boolean {
    if (e instanceof ExitFailure) return true;
    const code = (e as { code?: string } | null)?.code;
    if (code === 'EADDRNOTAVAIL' || code === 'EADDRINUSE') return true;
    // Plain http:// through an http(s) upstream proxy: the socket goes to the proxy itself.
    return this.viaUpstream !== null && (e as { syscall?: string }).syscall === 'connect';
  }

  /** The upstream proxy of a plain http:// request (absolute form), or null. */
  private get viaUpstream(): URL | null {
    return this.config.kind === 'http' || this.config.kind === 'https' ? this.proxyUrl : null;
  }

  /** Starts a request to `target` through this exit (the caller sends the body and handles the answer). */
  request(target: Target, method: string, headers: http.OutgoingHttpHeaders): UpstreamRequest {
    const up = this.viaUpstream;
    if (target.scheme === 'http' && up) {
      const p = hostPort(up, up.protocol === 'https:' ? 443 : 80);
      const auth = proxyAuthOf(up);
      const authority = net.isIPv6(target.host) ? `[${target.host}]` : target.host;
      const mod = up.protocol === 'https:' ? https : http;
      return mod.request({
        agent: this.httpAgent!,
        host: p.host,
        port: p.port,
        servername: net.isIP(p.host) ? undefined : p.host,
        ...(up.protocol === 'https:' ? { secureContext: this.trust.secureContext, rejectUnauthorized: this.trust.rejectUnauthorized } : {}),
        method,
        path: `http://${authority}:${target.port}${target.path}`,
        headers: auth ? { ...headers, 'Proxy-Authorization': auth } : headers,
      });
    }
    if (this.pool) {
      // A local exit: the raw data path (its own connections, to the address the guard checked).
      const authority = net.isIPv6(target.host) ? `[${target.host}]` : target.host;
      const host = target.port === (target.scheme === 'https' ? 443 : 80) ? authority : `${authority}:${target.port}`;
      if (target.scheme === 'http') return new PlainUpstreamRequest(this.pool, `${target.address}:${target.port}`, target.address, target.port, method, target.path, headers, host, null);
      const servername = net.isIP(target.host) ? undefined : target.host;
      // A connection is kept for the name its certificate was checked for, not only the address.
      const key = `${servername ?? ''}@${target.address}:${target.port}`;
      const secure = { servername, rejectUnauthorized: this.trust.rejectUnauthorized, secureContext: this.trust.secureContext };
      return new PlainUpstreamRequest(this.pool, key, target.address, target.port, method, target.path, headers, host, secure);
    }
    // Through a SOCKS or upstream proxy: Node's clients on the exit's tunnelling agents.
    const base = {
      host: target.host,
      port: target.port,
      method,
      path: target.path,
      headers,
    };
    if (target.scheme === 'https') {
      return https.request({ ...base, agent: this.httpsAgent!, servername: net.isIP(target.host) ? undefined : target.host, rejectUnauthorized: this.trust.rejectUnauthorized, secureContext: this.trust.secureContext } as https.RequestOptions);
    }
    return http.request({ ...base, agent: this.httpAgent! });
  }

  close(): void {
    this.httpAgent?.destroy();
    this.pool?.close();
    this.httpsAgent?.destroy();
  }
}

/** The label of an exit in `X-Proxy-Slave`: its source address, its proxy (no credentials), or `direct`. */
export function exitLabel(c: ProxyExitConfig): string {
  if (c.kind === 'local') return c.localAddress ?? 'direct';
  const u = new URL(c.url);
  return `${u.protocol}//${u.host}`;
}
