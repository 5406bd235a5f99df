import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OutgoingHttpHeaders } from 'node:http';
import { isIPv6 } from 'node:net';
import { PassThrough, Readable, Writable } from 'node:stream';
import { canAccessProject, Principal } from '@crawlhub/access';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { bannedByBody, bannedByStatus, needsBody, rulesFor } from '../domain/ban-rules';
import { CookieJars } from '../domain/cookie-jar';
import { errorCodeOf, ProxyError, PROXY_ERRORS } from '../domain/proxy-errors';
import { ourHeader, outgoingHeaders, parseProxyHeaders, ProxyOptions } from '../domain/proxy-headers';
import { TargetGuard } from '../domain/target-guard';
import { Exit, Target, UpstreamRequest, UpstreamResponse } from '../exits/exit';
import { ExitPool, Pick, Slot } from '../exits/exit-pool';
import { PROXY_SESSIONS, ProxySessions } from '../ports/proxy-sessions.port';
import { PROXY_USAGE, ProxyUsage, UsageOutcome } from '../ports/proxy-usage.port';
import { proxyBans, proxyErrors, proxyRequests, proxyRetries } from '@crawlhub/ops';
import { Clock, CLOCK } from '@crawlhub/contracts';

/** The version header value: scrapy-zyte-smartproxy recognises proxy responses by X-Crawlera-Version. */
export const PROXY_VERSION = '1.0.0-crawlhub';

/** Request bodies up to this size are kept for retries; a larger body streams once, without retries. */
export const RETRY_BODY_BYTES = 1024 * 1024;

/**
 * The answer to the client, whatever carries it: node:http's ServerResponse (inside
 * intercepted tunnels, the direct routes) or the plain-HTTP data path's PlainResponse.
 */
export interface ClientResponse extends Writable {
  readonly headersSent: boolean;
  /** Status, reason and a flat [name, value, ...] header list; the head leaves with the first body bytes. */
  writeHead(status: number, reason: string | undefined, headers: string[]): unknown;
}

/** A request to forward, from the proxy port (absolute form or inside a tunnel) or from /fetch. */
export interface ForwardRequest {
  /** The client's request body (node:http's IncomingMessage, or the plain data path's PlainRequest). */
  req: Readable;
  res: ClientResponse;
  principal: Principal;
  scheme: 'http' | 'https';
  host: string;
  port: number;
  path: string;
  method: string;
  /** The client's headers as [name, value, name, value...] (case kept). */
  rawHeaders: string[];
  /** Whether the client request carries a body. */
  hasBody: boolean;
}

/** Methods whose empty body is sent without a Content-Length (Node's http client does the same). */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

const RESPONSE_HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'transfer-encoding', 'trailer', 'upgrade']);

type Attempt = { kind: 'response'; upstream: UpstreamResponse; requestMs: number } | { kind: 'error'; error: unknown };

/** The common headers of every answer of the proxy. */
export function versionHeaders(): [string, string][] {
  return [
    ['X-Proxy-Version', PROXY_VERSION],
    ['X-Crawlera-Version', PROXY_VERSION],
  ];
}

/** versionHeaders() as a flat [name, value, ...] list, made once (every forwarded answer carries it). */
const VERSION_HEADER_LIST: readonly string[] = versionHeaders().flat();

/** Answers one of our errors: status, X-Proxy-Error and X-Crawlera-Error (except `unexpected`), text body. */
export function sendProxyError(res: ClientResponse, e: ProxyError, extra: [string, string][] = []): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const body = `${e.message}\n`;
  const headers: [string, string][] = [...versionHeaders(), ['Content-Type', 'text/plain; charset=utf-8'], ['Content-Length', String(Buffer.byteLength(body))], ...extra, ...Object.entries(e.headers)];
  if (e.code !== 'unexpected') headers.push(['X-Proxy-Error', e.code], ['X-Crawlera-Error', e.code]);
  if (e.code === 'bad_proxy_auth') headers.push(['Proxy-Authenticate', 'Basic realm="crawlhub"']);
  res.writeHead(e.status, PROXY_ERRORS[e.code][1], headers.flat());
  res.end(body);
}

/**
 * Forwards one request through the exits: our headers, the SSRF guard, limits, retries of
 * bans (on another exit when there is one), streaming both ways with per-chunk timeouts, and the accounting.
 */
@Injectable()
export class ProxyForwarder {
  private readonly log = new Logger('proxy');
  private outstanding = 0;
  private readonly perKey = new Map<string, number>();
  /** The cookies the proxy keeps per (key, exit), unless a request says `Cookies: disable`. */
  private readonly cookies = new CookieJars();

  constructor(
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    private readonly pool: ExitPool,
    private readonly guard: TargetGuard,
    @Inject(PROXY_SESSIONS) private readonly sessions: ProxySessions,
    @Inject(PROXY_USAGE) private readonly usage: ProxyUsage,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Requests in flight in this process (for tests and the stats). */
  get inFlight(): number {
    return this.outstanding;
  }

  async forward(f: ForwardRequest): Promise<void> {
    const user = f.principal.id;
    const started = performance.now();
    let bytes = 0;
    let ended = false;
    /** The exit of the request's last attempt, for the metrics ('none': refused before one was picked). */
    const via = { exit: 'none' };
    const finish = (outcome: UsageOutcome) => {
      if (ended) return;
      ended = true;
      this.usage.finished({ user, outcome, bytes, timeMs: performance.now() - started });
      proxyRequests.inc({ outcome, exit: via.exit });
    };
    const fail = (e: ProxyError, extra: [string, string][] = []) => {
      sendProxyError(f.res, e, extra);
      proxyErrors.inc({ code: e.code, exit: via.exit });
      finish(e.code === 'banned' ? 'ban' : 'failed');
    };
    this.usage.started(user);
    // The client went away (or its request was refused mid-body) while the key was checked: its 'close' has passed.
    if (f.res.destroyed) return finish('failed');
    const p = this.config.proxy;
    if (this.outstanding >= p.maxOutstanding) return fail(new ProxyError('serverbusy'));
    const mine = this.perKey.get(user) ?? 0;
    if (mine >= p.maxConnsPerKey) return fail(new ProxyError('too_many_conns'));
    this.outstanding++;
    this.perKey.set(user, mine + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.outstanding--;
      const n = (this.perKey.get(user) ?? 1) - 1;
      if (n <= 0) this.perKey.delete(user);
      else this.perKey.set(user, n);
    };
    f.res.once('close', () => {
      release();
      if (!f.res.writableFinished) finish('failed');
    });
    try {
      await this.run(f, (n) => (bytes += n), finish, fail, via);
    } catch (e) {
      const err = e instanceof ProxyError ? e : new ProxyError(errorCodeOf(e));
      if (err.code === 'unexpected') this.log.error(`${f.method} ${f.scheme}://${f.host}:${f.port}: ${(e as Error)?.stack ?? e}`);
      fail(err);
    }
  }

  private async run(
    f: ForwardRequest,
    count: (n: number) => void,
    finish: (o: UsageOutcome) => void,
    fail: (e: ProxyError, extra?: [string, string][]) => void,
    via: { exit: string },
  ): Promise<void> {
    const p = this.config.proxy;
    // Only our X-Proxy-*/X-Crawlera-* headers are read here; a name not starting with x is skipped before any lowercasing.
    const ours: Record<string, string> = {};
    for (let i = 0; i < f.rawHeaders.length; i += 2) {
      if ((f.rawHeaders[i].charCodeAt(0) | 0x20) !== 0x78) continue;
      const n = f.rawHeaders[i].toLowerCase();
      if (ourHeader(n) === null) continue;
      ours[n] = ours[n] === undefined ? f.rawHeaders[i + 1] : `${ours[n]},${f.rawHeaders[i + 1]}`;
    }
    const options = parseProxyHeaders(ours, { minMs: p.timeoutMinMs, maxMs: p.timeoutMaxMs });
    // Decision (docs/proxy.md): a key may label only jobs of its own projects.
    if (options.jobId !== null && !canAccessProject(f.principal, Number(options.jobId.split('/')[0]))) throw new ProxyError('header_auth', 'X-Proxy-JobId');
    let scheme = f.scheme;
    let port = f.port;
    if (options.useHttps && scheme === 'http') {
      scheme = 'https';
      if (port === 80) port = 443;
    }
    if (port < 1 || port > 65535) throw new ProxyError('bad_header', 'no valid target port');
    // The SSRF guard on the canonical host; the connection goes to the address it checked.
    // An address or a name answered without DNS is checked synchronously (nothing awaited).
    const { host, address } = this.guard.checkWithoutDns(f.host) ?? (await this.guard.check(f.host));
    const target: Target = { scheme, host, port, address, path: f.path || '/' };
    // The URL the website's cookies are scoped by.
    const siteUrl = `${scheme}://${isIPv6(host) ? `[${host}]` : host}:${port}${target.path}`;
    if (options.region !== null && !this.pool.hasRegion(options.region)) throw new ProxyError('bad_header', `X-Proxy-Region: no exit in region ${options.region}`);
    const session = options.session === null ? null : await this.pinnedSession(f.principal.id, options.session, host);
    const pinned = session?.exit ?? null;
    const sessionHeaders: [string, string][] = session ? [['X-Proxy-Session', session.id], ['X-Crawlera-Session', session.id]] : [];

    const body = !f.hasBody || f.req.readableEnded ? NO_BODY : await readBody(f.req, RETRY_BODY_BYTES);
    if ('stream' in body && !body.stream) throw new ProxyError('client_conn_closed');
    if ('buffer' in body) count(body.buffer.length);
    const maxRetries = !('buffer' in body) ? 0 : options.maxRetries ?? (pinned ? 0 : 5);
    const { headers, userAgent } = outgoingHeaders(f.rawHeaders, options);
    const outgoing: OutgoingHttpHeaders = {};
    const managedCookies = !options.cookiesDisabled;
    let clientLength: string | null = null;
    for (const [n, v] of headers) {
      const lower = n.toLowerCase();
      // The proxy manages cookies per exit: the client's are discarded (compat-notes §3.3).
      if (managedCookies && lower === 'cookie') continue;
      // The body's length is set below, from what is sent.
      if (lower === 'content-length') {
        clientLength = v;
        continue;
      }
      const prev = outgoing[n];
      outgoing[n] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [String(prev), v];
    }
    // A kept body is sent with its length (a chunked one included; as Node's client does, none for an empty GET);
    // a streamed one with the client's length, else chunked.
    if ('buffer' in body) {
      if (body.buffer.length > 0 || !BODYLESS_METHODS.has(f.method)) outgoing['Content-Length'] = String(body.buffer.length);
    } else if (clientLength !== null) outgoing['Content-Length'] = clientLength;

    const tried = new Set<Exit>();
    let bans = 0;
    let sessionSlot = session?.slot ?? null;
    const bannedAnswer = () => fail(new ProxyError('banned', undefined, { 'Retry-After': seconds(p.banCooldownMs) }), [...sessionHeaders, ...this.nextRequestIn(host, pinned, options.debugNextRequestIn)]);
    for (;;) {
      const picked = sessionSlot ?? (pinned ? this.pool.reserve(pinned, host, options.maxWaitMs) : this.pool.pick(host, tried, options.region, options.maxWaitMs));
      sessionSlot = null;
      // A retry that gets no slot in time ends with what stopped the request: the ban.
      if ('none' in picked) return bans > 0 ? bannedAnswer() : fail(refusal(picked), sessionHeaders);
      const exit = picked.exit;
      // No exit left that this request has not tried (one exit, or all banned here): the same one again, after a short backoff.
      const waitMs = tried.has(exit) ? Math.max(picked.waitMs, p.banRetryBackoffMs) : picked.waitMs;
      if (waitMs > 0 && !(await this.waitForSlot(picked, waitMs, host, f.res))) {
        finish('failed');
        return;
      }
      tried.add(exit);
      via.exit = exit.id;
      const jar = managedCookies ? this.cookies.jar(f.principal.id, exit.id, this.clock.now()) : null;
      const cookie = jar?.header(siteUrl, this.clock.now()) ?? null;
      const sent = cookie === null ? outgoing : { ...outgoing, Cookie: cookie };
      let result = await this.attempt(exit, target, f.method, sent, body, options.timeoutMs, f.res);
      if (result.kind === 'error' && (result.error as { reusedSocket?: boolean }).reusedSocket && 'buffer' in body) {
        // A kept-alive socket the website had closed: once more on a fresh one.
        result = await this.attempt(exit, target, f.method, sent, body, options.timeoutMs, f.res);
      }
      // The client went away meanwhile (its answer is destroyed as its connection closes).
      if (f.res.destroyed) {
        if (result.kind === 'response') result.upstream.destroy();
        finish('failed');
        return;
      }
      if (result.kind === 'error') {
        if (exit.isOwnFailure(result.error)) {
          this.pool.failed(exit);
          this.log.warn(`exit ${exit.id} failed: ${(result.error as Error).message}`);
          if (!pinned && tried.size <= maxRetries) {
            proxyRetries.inc({ reason: 'exit_failure' });
            continue;
          }
          throw new ProxyError('noslaves');
        }
        throw result.error instanceof ProxyError ? result.error : new ProxyError(errorCodeOf(result.error));
      }
      const { upstream } = result;
      const status = upstream.statusCode ?? 502;
      let prefix: Buffer | null = null;
      let banned = false;
      if (!options.noBancheck) {
        const rules = rulesFor(p.banRules, host, status);
        if (bannedByStatus(rules)) banned = true;
        else if (needsBody(rules)) {
          const read = await readPrefix(upstream, p.banBodyBytes, options.timeoutMs);
          if (read === null) throw new ProxyError('timeout');
          prefix = read;
          banned = bannedByBody(rules, prefix);
        }
      }
      if (banned) {
        bans++;
        proxyBans.inc({ exit: exit.id });
        upstream.destroy();
        this.pool.banned(exit, host);
        // Inside a session the retries (only with Max-Retries) stay on its exit: pinning is the point of a session.
        if (bans <= maxRetries) {
          proxyRetries.inc({ reason: 'ban' });
          continue;
        }
        return bannedAnswer();
      }
      const setCookies = upstream.headers['set-cookie'];
      if (jar && setCookies?.length) jar.store(siteUrl, setCookies, this.clock.now());
      const length = Number(upstream.headers['content-length'] ?? NaN);
      if (Number.isFinite(length) && length > p.maxResponseBytes) {
        upstream.destroy();
        throw new ProxyError('data_error');
      }
      const out: string[] = [];
      for (let i = 0; i < upstream.rawHeaders.length; i += 2) {
        if (!RESPONSE_HOP_BY_HOP.has(upstream.rawHeaders[i].toLowerCase())) out.push(upstream.rawHeaders[i], upstream.rawHeaders[i + 1]);
      }
      out.push(...VERSION_HEADER_LIST, 'X-Proxy-Slave', exit.id, 'X-Crawlera-Slave', exit.id);
      for (const [n, v] of sessionHeaders) out.push(n, v);
      for (const [n, v] of this.nextRequestIn(host, pinned, options.debugNextRequestIn)) out.push(n, v);
      if (options.debugRequestTime) out.push(`${options.debugPrefix}Debug-Request-Time`, (result.requestMs / 1000).toFixed(6));
      if (options.debugUa && userAgent !== null) out.push(`${options.debugPrefix}Debug-UA`, userAgent);
      await this.stream(f.res, upstream, status, out, prefix, options, count, finish);
      return;
    }
  }

  /** Waits `waitMs` (the slot's time, or a retry's backoff); false (and the slot given back) when the client goes away first. */
  private waitForSlot(slot: Slot, waitMs: number, domain: string, res: ClientResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const gone = () => {
        clearTimeout(timer);
        this.pool.giveBack(slot, domain);
        resolve(false);
      };
      const timer = setTimeout(() => {
        res.off('close', gone);
        resolve(true);
      }, waitMs);
      res.once('close', gone);
    });
  }

  /**
   * X-Proxy-Next-Request-In (and the X-Crawlera- twin): from the soft limit on, the seconds a
   * next request to the domain would wait; with `always` (the client's `Debug: next-request-in`)
   * whatever the wait, so the 12 s spacing a second request meets can be seen before it is met.
   */
  private nextRequestIn(domain: string, pinned: Exit | null, always: boolean): [string, string][] {
    const { spacingMs, softLimitMs } = this.config.proxy.throttle;
    if (spacingMs === 0) return [];
    const waitMs = this.pool.nextWaitMs(domain, pinned ?? undefined);
    if (waitMs < softLimitMs && !always) return [];
    const value = waitMs > 0 ? seconds(waitMs) : '0';
    return [
      ['X-Proxy-Next-Request-In', value],
      ['X-Crawlera-Next-Request-In', value],
    ];
  }

  /**
   * The session of `X-Proxy-Session`: `create` makes one on the exit the pool picks for
   * `host` (with that pick's throttling slot, the request's first); an id must be one of
   * the key's live sessions on an exit still configured (else 400 bad_session_id; its exit
   * out of rotation: 503 noslaves).
   */
  private async pinnedSession(user: string, header: string, host: string): Promise<{ id: string; exit: Exit; slot: Slot | null }> {
    if (header === 'create') {
      const picked = this.pool.pick(host);
      if ('none' in picked) throw refusal(picked);
      return { id: await this.sessions.create(user, picked.exit.id), exit: picked.exit, slot: picked };
    }
    const exitId = await this.sessions.exitOf(user, header);
    if (exitId === null || !this.pool.exits.some((e) => e.id === exitId)) throw new ProxyError('bad_session_id');
    const exit = this.pool.byId(exitId);
    if (exit === null) throw new ProxyError('noslaves');
    return { id: header, exit, slot: null };
  }

  /** One try through one exit: resolves with the response headers, or the error. */
  private attempt(exit: Exit, target: Target, method: string, headers: OutgoingHttpHeaders, body: Body, timeoutMs: number, res: ClientResponse): Promise<Attempt> {
    return new Promise<Attempt>((resolve) => {
      const sent = performance.now();
      let creq: UpstreamRequest;
      try {
        creq = exit.request(target, method, headers);
      } catch (e) {
        return resolve({ kind: 'error', error: e });
      }
      let settled = false;
      const settle = (a: Attempt) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        res.off('close', onClientClose);
        resolve(a);
      };
      const timer = setTimeout(() => {
        creq.destroy(new ProxyError('timeout'));
      }, timeoutMs);
      const onClientClose = () => {
        creq.destroy(new ProxyError('client_conn_closed'));
      };
      res.once('close', onClientClose);
      creq.once('response', (upstream: UpstreamResponse) => settle({ kind: 'response', upstream, requestMs: performance.now() - sent }));
      creq.on('error', (error) => {
        if (creq.reusedSocket && (error as { code?: string }).code === 'ECONNRESET') Object.assign(error, { reusedSocket: true });
        settle({ kind: 'error', error });
      });
      if ('buffer' in body) creq.end(body.buffer);
      else if (body.stream) body.stream.pipe(creq);
      else creq.end();
    });
  }

  /**
   * Sends the response: a body already complete (most small answers) in one write with the
   * head, else the headers, the prefix read for the ban check, then the rest, piped, with a
   * per-chunk timeout; the size limit either way.
   */
  private stream(res: ClientResponse, upstream: UpstreamResponse, status: number, headers: string[], prefix: Buffer | null, options: ProxyOptions, count: (n: number) => void, finish: (o: UsageOutcome) => void): Promise<void> {
    return new Promise<void>((resolve) => {
      const max = this.config.proxy.maxResponseBytes;
      let size = 0;
      let timer: NodeJS.Timeout | undefined;
      const abort = (why: string) => {
        this.log.debug(`response aborted: ${why}`);
        clearTimeout(timer);
        upstream.destroy();
        res.destroy();
        finish('failed');
        resolve();
      };
      // One timer, pushed back at each chunk (refresh costs less than a new timer per chunk).
      const arm = () => {
        if (timer) timer.refresh();
        else timer = setTimeout(() => abort('timeout between chunks'), options.timeoutMs);
      };
      res.once('finish', () => {
        clearTimeout(timer);
        finish('clean');
        resolve();
      });
      res.once('close', () => {
        clearTimeout(timer);
        if (!res.writableFinished) {
          upstream.destroy();
          finish('failed');
        }
        resolve();
      });
      res.writeHead(status, upstream.statusMessage, headers);
      if (upstream.complete) {
        // The whole body is in (a small answer arrives with its head, as most do): one write, no pipe.
        // read() of an ended stream hands its whole buffer (null when empty) without flowing mode.
        const rest = (upstream.read() as Buffer | null) ?? EMPTY;
        const whole = prefix && prefix.length ? Buffer.concat([prefix, rest]) : rest;
        if (whole.length > max) return abort('data_error: response too big');
        count(whole.length);
        return void res.end(whole);
      }
      if (prefix && prefix.length) {
        size += prefix.length;
        count(prefix.length);
        res.write(prefix);
      }
      upstream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        count(chunk.length);
        if (size > max) return abort('data_error: response too big');
        arm();
      });
      upstream.once('error', (e) => abort(`website: ${e.message}`));
      upstream.once('aborted', () => abort('website aborted'));
      arm();
      upstream.pipe(res);
    });
  }
}

type Body = { buffer: Buffer } | { stream: Readable | null };

const EMPTY = Buffer.alloc(0);

/** The body of a request without one (most): no read, nothing awaited. */
const NO_BODY: Body = { buffer: EMPTY };

/** Whole seconds, at least 1, for Retry-After and X-Proxy-Next-Request-In. */
function seconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}

/** The answer when the pool has no slot to give: noslaves, or throttled (with Retry-After). */
function refusal(picked: Exclude<Pick, Slot>): ProxyError {
  if (picked.none === 'noslaves') return new ProxyError('noslaves');
  return new ProxyError('/limits/over-domain-limit', undefined, { 'Retry-After': seconds(picked.retryAfterMs) });
}

/**
 * The client's body: whole when it ends within `limit` bytes (replayable, so retries are
 * possible), else a stream of what was read and the rest (sent once).
 */
function readBody(req: Readable, limit: number): Promise<Body> {
  if (req.destroyed) return Promise.resolve({ stream: null });
  return new Promise<Body>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
    };
    const onData = (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (size > limit) {
        cleanup();
        req.pause();
        const pass = new PassThrough();
        for (const x of chunks) pass.write(x);
        req.pipe(pass);
        resolve({ stream: pass });
      }
    };
    const onEnd = () => {
      cleanup();
      resolve({ buffer: Buffer.concat(chunks) });
    };
    const onClose = () => {
      cleanup();
      if (!req.readableEnded) resolve({ stream: null });
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
    req.resume();
  });
}

/** Reads up to `limit` bytes of a response (or all of it, if shorter); null on timeout. Leaves the rest unread. */
function readPrefix(upstream: Readable, limit: number, timeoutMs: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (v: Buffer | null) => {
      clearTimeout(timer);
      upstream.off('data', onData);
      upstream.off('end', onEnd);
      upstream.off('error', onEnd);
      upstream.pause();
      resolve(v);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    const onData = (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (size >= limit) done(Buffer.concat(chunks));
    };
    const onEnd = () => done(Buffer.concat(chunks));
    upstream.on('data', onData);
    upstream.once('end', onEnd);
    upstream.once('error', onEnd);
  });
}
