import { Inject, Injectable, Logger } from '@nestjs/common';
import { Proxy } from 'http-mitm-proxy';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { createServer as createNetServer, Server as NetServer, Socket } from 'node:net';
import type { Duplex, Readable } from 'node:stream';
import { format } from 'node:util';
import { AccessService, looksLikeProxyToken, Principal } from '@crawlhub/access';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { OpsEndpoints } from '@crawlhub/ops';
import { Core, CORE, JOB_TOKEN_SECRET, opsEndpointsOf } from '@crawlhub/platform';
import { errorCodeOf, ProxyError, PROXY_ERRORS } from '../domain/proxy-errors';
import { ourHeader } from '../domain/proxy-headers';
import { TargetGuard } from '../domain/target-guard';
import { ExitPool } from '../exits/exit-pool';
import { PROXY_SESSIONS, ProxySessions } from '../ports/proxy-sessions.port';
import { ProxyCa } from '../tls/proxy-ca';
import { TunnelTls } from '../tls/tunnel-tls';
import { fastAbsoluteTarget, MAX_HEADER_BYTES, RequestHead } from '../wire/http1';
import { PlainConnection, PlainHandler } from '../wire/plain-connection';
import { MitmInternals } from './mitm-internals';
import { ClientResponse, ProxyForwarder, sendProxyError, versionHeaders } from './proxy-forwarder';

export { MAX_HEADER_BYTES };

/** The user name of HTTP Basic credentials (the API key; the password is empty). */
export function basicUser(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string' || !/^basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = colon < 0 ? decoded : decoded.slice(0, colon);
  return user === '' ? null : user;
}

/**
 * Our headers sent on a CONNECT (e.g. curl --proxy-header) apply to every request of its
 * tunnel that does not send the same header itself (decision: docs/proxy.md).
 */
export function withTunnelHeaders(connectRaw: string[], innerRaw: string[]): string[] {
  const candidates: number[] = [];
  for (let i = 0; i < connectRaw.length; i += 2) if (ourHeader(connectRaw[i]) !== null) candidates.push(i);
  // Most CONNECTs carry none: the inner request's headers are not even looked at.
  if (candidates.length === 0) return innerRaw;
  const inner = new Set<string>();
  for (let i = 0; i < innerRaw.length; i += 2) {
    const short = ourHeader(innerRaw[i]);
    if (short !== null) inner.add(short);
  }
  const extra: string[] = [];
  for (const i of candidates) if (!inner.has(ourHeader(connectRaw[i])!)) extra.push(connectRaw[i], connectRaw[i + 1]);
  return extra.length ? [...innerRaw, ...extra] : innerRaw;
}

/** Decoded Proxy-Authorization headers kept (emptied when full). */
const BASIC_USER_MEMO = 1024;

/** An authenticated CONNECT: its key, its canonical target and our headers sent on it, for every request inside its tunnel. */
interface Tunnel {
  principal: Principal;
  host: string;
  port: number;
  /** The name of the certificate presented inside the tunnel: the target as the client spelled it (what its TLS client checks), an IPv6 literal in canonical form. */
  certName: string;
  /** The CONNECT's raw headers when it sent any of ours (X-Proxy-*, X-Crawlera-*), else null. */
  connectHeaders: string[] | null;
}

const CONNECT_TARGET = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]{1,253}):(\d{1,5})$/;

/** A proxied request's head, from either transport (node:http for a connection handed off, the plain data path else). */
interface ProxiedHead {
  method: string;
  target: string;
  rawHeaders: string[];
  proxyAuthorization: string | undefined;
  hasBody: boolean;
}

/**
 * A request the HTTP parser refused, answered as our errors are (X-Proxy-Error, text body)
 * and the connection closed: 431 `headers_too_large` for headers above MAX_HEADER_BYTES,
 * 400 `bad_request` for a request that is not HTTP; anything else (a reset, a timeout)
 * only closes it.
 */
export function refuseUnparsable(e: Error & { code?: string; reason?: unknown }, socket: Duplex): void {
  const refusal =
    e.code === 'HPE_HEADER_OVERFLOW'
      ? new ProxyError('headers_too_large', `at most ${MAX_HEADER_BYTES} bytes`)
      : e.code?.startsWith('HPE_')
        ? new ProxyError('bad_request', `not a valid HTTP/1.1 request (${typeof e.reason === 'string' ? e.reason : e.code})`)
        : null;
  // Closed once the answer is written out (at once, a TLS socket would drop it).
  if (refusal && socket.writable) socket.end(rawProxyError(refusal), () => socket.destroy());
  else socket.destroy();
}

/** One of our errors as HTTP/1.1 bytes, for a socket that has no response object; the connection closes after it. */
export function rawProxyError(e: ProxyError): string {
  const body = `${e.message}\n`;
  const headers: [string, string][] = [...versionHeaders(), ['X-Proxy-Error', e.code], ['X-Crawlera-Error', e.code], ['Content-Type', 'text/plain; charset=utf-8'], ['Content-Length', String(Buffer.byteLength(body))], ['Connection', 'close']];
  return `HTTP/1.1 ${e.status} ${PROXY_ERRORS[e.code][1]}\r\n${headers.map(([n, v]) => `${n}: ${v}`).join('\r\n')}\r\n\r\n${body}`;
}

/** A text/plain answer of the proxy's own routes, with our version headers. */
function sendText(res: ServerResponse, status: number, body: string, headers: [string, string][] = []): void {
  res.writeHead(status, [...versionHeaders(), ['Content-Type', 'text/plain; charset=utf-8'], ['Content-Length', String(Buffer.byteLength(body))], ...headers].flat());
  res.end(body);
}

/** A write to a response that has ended (the answer was already given): nobody left to tell. */
function ignoreLateWrite(): void {}

/**
 * The proxy port (:8010). Its listener is the plain-HTTP data path (wire/plain-connection.ts:
 * raw sockets, a strict parser of its own): absolute-form requests are forwarded from there
 * without node:http. A CONNECT or an origin-form request hands its connection to
 * http-mitm-proxy's HTTP server (which listens on no port of its own): CONNECT answered
 * there, and a few direct routes: GET /ca.crt, the legacy GET /fetch and /sessions, and the
 * platform's /healthz, /readyz and /metrics (libs/ops). A tunnel is intercepted by the
 * proxy itself (`enterTunnel`: TLS terminated with crawlhub's CA, tls/tunnel-tls.ts) and its
 * requests go to the plain data path again. Every proxied request goes through `proxied` to
 * ProxyForwarder (the library's own upstream request is never made).
 */
@Injectable()
export class ProxyServer {
  private readonly log = new Logger('proxy');
  private readonly proxy = new Proxy();
  private readonly internals = new MitmInternals(this.proxy);
  /** The principal and the canonical target of each authenticated CONNECT, until its tunnel is entered. */
  private readonly tunnels = new WeakMap<IncomingMessage, Tunnel>();
  private readonly tunnelTls: TunnelTls;
  private port = 0;
  /** Client sockets of CONNECT tunnels (the HTTP server lets go of them): closed on shutdown. */
  private readonly tunnelSockets = new Set<Duplex>();
  /** The proxy port's listener (the plain data path), and its connections (tunnels' included). */
  private listener: NetServer | null = null;
  private readonly plainConnections = new Set<PlainConnection>();
  /** Proxy-Authorization header -> its user name (basicUser), for the headers seen lately (at most BASIC_USER_MEMO). */
  private readonly basicUsers = new Map<string, string | null>();
  private readonly plainHandler: PlainHandler = {
    request: (head, body, res) => this.onPlainRequest(head, body, res),
    handOff: (socket, bytes) => this.handOff(socket, bytes),
    refusal: (e) => rawProxyError(new ProxyError(e.code, e.message)),
  };

  constructor(
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    private readonly access: AccessService,
    private readonly forwarder: ProxyForwarder,
    private readonly ca: ProxyCa,
    private readonly pool: ExitPool,
    private readonly guard: TargetGuard,
    @Inject(PROXY_SESSIONS) private readonly sessions: ProxySessions,
    @Inject(JOB_TOKEN_SECRET) private readonly platformSecret: string,
    @Inject(CORE) private readonly core: Core,
  ) {
    this.tunnelTls = new TunnelTls(ca);
  }

  async listen(host: string, port: number): Promise<number> {
    await this.ca.open();
    const proxy = this.proxy;
    // http-mitm-proxy prints a console.debug line per new intercepted host (and one console.info
    // at start): debug lines of ours. Nothing else in the proxy process prints with console.debug.
    console.debug = (...args: unknown[]) => this.log.debug(format(...args));
    // The library prints every error (its servers, sockets, CONNECT); requests are ours (see `adopt`).
    this.internals.routeErrors((kind, err) => this.log.debug(`${kind}: ${err?.message ?? err}`));
    proxy.onConnect((req, socket, head, cb) => this.onConnect(req, socket, cb));
    // WebSockets are not forwarded (the library would proxy them without our checks, and its
    // close handler throws when no upstream socket exists): closed before it sees them.
    this.internals.refuseWebSockets();
    // Each tunnel's socket is ours (`enterTunnel`), not the library's loopback connection to a server of its own.
    this.internals.onTunnel((connect, socket, head) => this.enterTunnel(connect, socket, head));
    const info = console.info;
    console.info = (...args: unknown[]) => this.log.debug(format(...args));
    try {
      await new Promise<void>((resolve, reject) => {
        proxy.listen({ host: '127.0.0.1', port: 0, keepAlive: true, sslCaDir: this.ca.dir }, (err?: Error | null) => (err ? reject(err) : resolve()));
      });
    } finally {
      console.info = info;
    }
    // The library's HTTP server takes connections only from the plain listener (`handOff`) and from tunnels.
    proxy.httpServer!.close();
    this.adopt(proxy.httpServer!);
    const listener = createNetServer((socket) => this.plainConnections.add(new PlainConnection(socket, this.plainHandler, (c) => this.plainConnections.delete(c))));
    this.listener = listener;
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen({ host, port }, () => {
        listener.off('error', reject);
        resolve();
      });
    });
    this.port = (listener.address() as { port: number }).port;
    return this.port;
  }

  /** A CONNECT or an origin-form request on the plain listener: the connection goes to the library's HTTP server, its bytes first. */
  private handOff(socket: Socket, bytes: Buffer): void {
    socket.pause();
    socket.unshift(bytes);
    this.internals.httpServer!.emit('connection', socket);
    socket.resume();
  }

  /**
   * A request on the plain data path: in absolute form on the proxy port, or any request
   * inside a tunnel (`tunnel`; `isSSL`: decrypted), which gets our headers of its CONNECT.
   */
  private onPlainRequest(head: RequestHead, body: Readable, res: ClientResponse, tunnel?: Tunnel, isSSL = false): void {
    const rawHeaders = tunnel?.connectHeaders ? withTunnelHeaders(tunnel.connectHeaders, head.rawHeaders) : head.rawHeaders;
    const proxied: ProxiedHead = { method: head.method, target: head.target, rawHeaders, proxyAuthorization: head.proxyAuthorization, hasBody: head.chunked || (head.contentLength ?? 0) > 0 };
    this.proxied(proxied, body, res, tunnel, isSSL).catch((e: Error) => {
      this.log.error(e.stack ?? String(e));
      sendProxyError(res, new ProxyError('unexpected'));
    });
  }

  /**
   * Takes every request of the library's HTTP server with our handler instead of its own
   * (which builds a context object per request and parses the target again), and sets the
   * header size limit. The library keeps CONNECT and WebSocket upgrades.
   */
  private adopt(server: HttpServer): void {
    (server as { maxHeaderSize?: number }).maxHeaderSize = MAX_HEADER_BYTES;
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      res.on('error', ignoreLateWrite);
      this.onRequest(req, res).catch((e: Error) => {
        this.log.error(e.stack ?? String(e));
        sendProxyError(res, new ProxyError('unexpected'));
      });
    });
    server.removeAllListeners('clientError');
    server.on('clientError', refuseUnparsable);
  }

  /**
   * Stops accepting connections (idle keep-alive ones close), lets the requests in flight
   * finish (no longer than PROXY_TIMEOUT_MAX_MS, the most any may take), then cuts what is
   * left: idle tunnels, connections.
   */
  async close(): Promise<void> {
    const servers = this.internals.servers();
    this.listener?.close();
    for (const c of this.plainConnections) if (c.idle) c.destroy();
    try {
      this.proxy.close();
    } catch {
      // not listening
    }
    for (const until = performance.now() + this.config.proxy.timeoutMaxMs; this.forwarder.inFlight > 0 && performance.now() < until; ) await new Promise((r) => setTimeout(r, 50));
    for (const c of this.plainConnections) c.destroy();
    for (const s of servers) s.closeAllConnections();
    for (const s of this.tunnelSockets) s.destroy();
  }

  /**
   * A tunnel after its CONNECT was answered: the client's socket (paused, `head` its first
   * bytes) stays in this process. A TLS handshake is terminated here (`TunnelTls`, with our
   * leaf for the target), a plain tunnel is read as is (http-mitm-proxy takes plain HTTP
   * inside a tunnel as requests too); either way its requests go to the plain data path
   * (`PlainConnection` in tunnel mode), each to the tunnel's target with the CONNECT's key
   * and headers. (The library would open a loopback connection to a TLS server of its own
   * per tunnel and pipe both ways: every byte written and read twice more.)
   */
  private enterTunnel(connect: IncomingMessage, socket: Duplex, head: Buffer): void {
    const tunnel = this.tunnels.get(connect);
    if (!tunnel) return void socket.destroy();
    const tlsRecord = head[0] === 0x16 || head[0] === 0x80 || head[0] === 0x00;
    if (!tlsRecord) {
      socket.unshift(head);
      this.serveTunnel(socket as Socket, tunnel, false);
      return void socket.resume();
    }
    this.terminateTls(tunnel, socket, head);
  }

  /** The decrypted side of an intercepted tunnel, served by the plain data path. */
  private terminateTls(tunnel: Tunnel, socket: Duplex, head: Buffer): void {
    this.tunnelTls.terminate(socket, head, tunnel.certName).then(
      (secure) => this.serveTunnel(secure, tunnel, true),
      (e: Error) => {
        this.log.warn(`no certificate for ${tunnel.certName}: ${e.message}`);
        socket.destroy();
      },
    );
  }

  private serveTunnel(socket: Socket, tunnel: Tunnel, isSSL: boolean): void {
    const handler: PlainHandler = {
      request: (head, body, res) => this.onPlainRequest(head, body, res, tunnel, isSSL),
      refusal: this.plainHandler.refusal,
    };
    this.plainConnections.add(new PlainConnection(socket, handler, (c) => this.plainConnections.delete(c), true));
  }

  private async principalOf(header: string | string[] | undefined): Promise<Principal | null> {
    let user = typeof header === 'string' ? this.basicUsers.get(header) : null;
    if (user === undefined) {
      // A client sends the same header on every request: decoded once (the key itself is still checked every time).
      if (this.basicUsers.size >= BASIC_USER_MEMO) this.basicUsers.clear();
      this.basicUsers.set(header as string, (user = basicUser(header)));
    }
    if (user === null) return null;
    // The fetch workers' short-lived tokens (they never hold the user's key).
    if (looksLikeProxyToken(user)) return this.access.authenticateProxyToken(user, this.platformSecret);
    const p = await this.access.authenticate(user);
    // Job tokens are not proxy credentials: only API keys and proxy tokens.
    return p && p.job === undefined ? p : null;
  }

  /** The key of a direct route: `Authorization: Basic`, or `Proxy-Authorization` (like the proxy). */
  private async directPrincipal(req: IncomingMessage): Promise<Principal | null> {
    return (await this.principalOf(req.headers['authorization'])) ?? (await this.principalOf(req.headers['proxy-authorization']));
  }

  /**
   * A CONNECT, before the library answers 200 and takes the tunnel: its syntax (540: the
   * target must parse as a host) and its key (407). The tunnel's target is kept in its
   * canonical form, and every request inside the tunnel goes through the whole SSRF guard
   * with it: a refusal (523) is answered inside the tunnel like every other error of an
   * intercepted tunnel, where clients read X-Proxy-Error (a browser or Scrapy only sees
   * "tunnel failed" when the CONNECT itself is refused). The certificate presented inside
   * the tunnel names the canonical target (`enterTunnel`), an IPv6 literal included.
   */
  private onConnect(req: IncomingMessage, socket: Duplex, cb: (err?: Error | null) => void): void {
    this.tunnelSockets.add(socket);
    socket.once('close', () => this.tunnelSockets.delete(socket));
    const refuse = (e: ProxyError) => {
      const body = `${e.message}\n`;
      const head = [`HTTP/1.1 ${e.status} ${PROXY_ERRORS[e.code][1]}`, ...versionHeaders().map(([n, v]) => `${n}: ${v}`), 'Content-Type: text/plain; charset=utf-8', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'];
      if (e.code !== 'unexpected') head.push(`X-Proxy-Error: ${e.code}`, `X-Crawlera-Error: ${e.code}`);
      if (e.code === 'bad_proxy_auth') head.push('Proxy-Authenticate: Basic realm="crawlhub"');
      socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    };
    const m = CONNECT_TARGET.exec(req.url ?? '');
    if (!m || Number(m[2]) > 65535) return refuse(new ProxyError('bad_header'));
    const port = Number(m[2]);
    this.principalOf(req.headers['proxy-authorization'])
      .then((principal) => {
        if (!principal) return refuse(new ProxyError('bad_proxy_auth'));
        const host = this.guard.canonical(m[1]);
        const connectHeaders = req.rawHeaders.some((name, i) => i % 2 === 0 && ourHeader(name) !== null) ? req.rawHeaders : null;
        this.tunnels.set(req, { principal, host, port, certName: host.includes(':') ? host : m[1], connectHeaders });
        cb();
      })
      .catch((e: unknown) => {
        if (e instanceof ProxyError) return refuse(e);
        this.log.error(`CONNECT ${req.url}: ${(e as Error)?.stack ?? e}`);
        refuse(new ProxyError(errorCodeOf(e)));
      });
  }

  /** A request of the library's HTTP server (a connection handed over: a direct route, or an absolute-form request after one). */
  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url ?? '';
    if (raw.startsWith('/')) return this.direct(req, res, raw);
    const hasBody = req.headers['content-length'] !== undefined ? req.headers['content-length'] !== '0' : req.headers['transfer-encoding'] !== undefined;
    const auth = req.headers['proxy-authorization'];
    const head: ProxiedHead = { method: req.method ?? 'GET', target: raw, rawHeaders: req.rawHeaders, proxyAuthorization: typeof auth === 'string' ? auth : undefined, hasBody };
    return this.proxied(head, req, res, undefined, false);
  }

  /**
   * A proxied request from either transport: its key (the tunnel's, unless it sends its own),
   * its target (the tunnel's whatever the request names, else its absolute URL), then the forwarder.
   */
  private async proxied(head: ProxiedHead, body: Readable, res: ClientResponse, tunnel: Tunnel | undefined, isSSL: boolean): Promise<void> {
    const raw = head.target;
    let principal: Principal | null = tunnel?.principal ?? null;
    if (head.proxyAuthorization !== undefined || principal === null) principal = await this.principalOf(head.proxyAuthorization);
    if (principal === null) {
      body.resume();
      return sendProxyError(res, new ProxyError('bad_proxy_auth'));
    }
    let scheme: 'http' | 'https';
    let host: string;
    let port: number;
    let path: string;
    if (tunnel) {
      // The tunnel's target, whatever the request inside names (an absolute URL, a Host header).
      scheme = isSSL ? 'https' : 'http';
      host = tunnel.host;
      port = tunnel.port;
      path = raw.startsWith('/') ? raw : '/';
    } else {
      // The common spellings are split without a URL object; the parser decides every other one.
      const fast = fastAbsoluteTarget(raw);
      if (fast !== null) ({ scheme, host, port, path } = fast);
      else {
        let url: URL;
        try {
          url = new URL(raw);
        } catch {
          body.resume();
          return sendProxyError(res, new ProxyError('bad_header', 'request target'));
        }
        if (url.protocol !== 'http:' && url.protocol !== 'https:') {
          body.resume();
          return sendProxyError(res, new ProxyError('bad_header', 'only http and https URLs'));
        }
        scheme = url.protocol === 'https:' ? 'https' : 'http';
        host = url.hostname;
        port = url.port ? Number(url.port) : scheme === 'https' ? 443 : 80;
        path = `${url.pathname}${url.search}`;
      }
    }
    await this.forwarder.forward({ req: body, res, principal, scheme, host, port, path, method: head.method, rawHeaders: head.rawHeaders, hasBody: head.hasBody });
  }

  /** Origin-form requests to the proxy port itself. */
  private async direct(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    req.resume();
    const url = new URL(raw, 'http://proxy.invalid');
    if (OpsEndpoints.handles(url.pathname)) return opsEndpointsOf(this.core, this.access).answer(req, res, url.pathname);
    if (url.pathname === '/ca.crt') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendProxyError(res, new ProxyError('method_not_allowed'), [['Allow', 'GET, HEAD']]);
      const pem = this.ca.certificatePem;
      res.writeHead(200, [...versionHeaders(), ['Content-Type', 'application/x-x509-ca-cert'], ['Content-Disposition', 'attachment; filename="crawlhub-ca.crt"'], ['Content-Length', String(Buffer.byteLength(pem))]].flat());
      return void res.end(req.method === 'HEAD' ? undefined : pem);
    }
    if (url.pathname === '/fetch') {
      if (req.method !== 'GET') return sendProxyError(res, new ProxyError('method_not_allowed'), [['Allow', 'GET']]);
      const principal = await this.directPrincipal(req);
      if (!principal) return sendProxyError(res, new ProxyError('bad_proxy_auth'));
      const target = url.searchParams.get('url');
      let parsed: URL | null = null;
      try {
        parsed = target ? new URL(target) : null;
      } catch {
        parsed = null;
      }
      if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return sendProxyError(res, new ProxyError('bad_request', 'the url parameter must be an http or https URL'));
      const rawHeaders: string[] = ['Host', parsed.host];
      for (const pair of (url.searchParams.get('headers') ?? '').split(';')) {
        const colon = pair.indexOf(':');
        if (colon <= 0) continue;
        const name = pair.slice(0, colon).trim();
        const value = pair.slice(colon + 1).trim();
        if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name) || /[\r\n\0]/.test(value)) return sendProxyError(res, new ProxyError('bad_header', name));
        if (name.toLowerCase() === 'host') rawHeaders[1] = value;
        else rawHeaders.push(name, value);
      }
      const scheme = parsed.protocol === 'https:' ? 'https' : 'http';
      return this.forwarder.forward({
        req,
        res,
        principal,
        scheme,
        host: parsed.hostname,
        port: parsed.port ? Number(parsed.port) : scheme === 'https' ? 443 : 80,
        path: `${parsed.pathname}${parsed.search}`,
        method: 'GET',
        rawHeaders,
        hasBody: false,
      });
    }
    const session = /^\/sessions(?:\/([^/]+))?\/?$/.exec(url.pathname);
    // Ids are decimal: the path segment is compared as sent (an encoded one is simply unknown).
    if (session) return this.sessionRoute(req, res, session[1] ?? null);
    sendProxyError(res, new ProxyError('not_found'));
  }

  /**
   * GET /sessions (id -> exit), POST /sessions (a new session on the least recently used
   * healthy exit; the id as the body and in X-Proxy-Session), DELETE /sessions/<id> (204).
   * The key comes as `Authorization: Basic` like the original's (Proxy-Authorization also
   * works); none or an unknown one answers 401. A key only ever sees its own sessions.
   */
  private async sessionRoute(req: IncomingMessage, res: ServerResponse, id: string | null): Promise<void> {
    const allowed = id === null ? ['GET', 'POST'] : ['DELETE'];
    if (!allowed.includes(req.method ?? '')) return sendProxyError(res, new ProxyError('method_not_allowed'), [['Allow', allowed.join(', ')]]);
    const principal = await this.directPrincipal(req);
    if (!principal) {
      return sendText(res, 401, `${PROXY_ERRORS.bad_proxy_auth[1]}\n`, [['WWW-Authenticate', 'Basic realm="crawlhub"'], ['X-Proxy-Error', 'bad_proxy_auth'], ['X-Crawlera-Error', 'bad_proxy_auth']]);
    }
    const user = principal.id;
    try {
      if (id !== null) {
        if (!(await this.sessions.delete(user, id))) throw new ProxyError('bad_session_id');
        res.writeHead(204, versionHeaders().flat());
        return void res.end();
      }
      if (req.method === 'GET') {
        const body = JSON.stringify(await this.sessions.list(user));
        res.writeHead(200, [...versionHeaders(), ['Content-Type', 'application/json'], ['Content-Length', String(Buffer.byteLength(body))]].flat());
        return void res.end(body);
      }
      // No target domain yet: the least recently used healthy exit.
      const exit = this.pool.leastRecentlyUsed();
      if (exit === null) throw new ProxyError('noslaves');
      const created = await this.sessions.create(user, exit.id);
      sendText(res, 200, created, [['X-Proxy-Session', created], ['X-Crawlera-Session', created], ['X-Proxy-Slave', exit.id], ['X-Crawlera-Slave', exit.id]]);
    } catch (e) {
      if (!(e instanceof ProxyError)) throw e;
      sendProxyError(res, e);
    }
  }
}
