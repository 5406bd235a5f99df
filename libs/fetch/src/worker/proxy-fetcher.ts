import { Agent, IncomingMessage, request } from 'node:http';
import type { Clock, FetchCompleted, FetchRequested } from '@crawlhub/contracts';

/** What a fetch produced, before it is put in a `fetch.completed` event (which carries the body in base64). */
export type FetchOutcome = Pick<FetchCompleted, 'url' | 'originalStatus' | 'headers' | 'proxyStatus' | 'error'> & { body: Buffer };

export interface ProxyFetcherOptions {
  /** The proxy, `http://host:port`. */
  proxyUrl: string;
  maxResponseBytes: number;
  /** Kept-alive connections to the proxy. */
  maxSockets: number;
  /** The clock of the requests' deadlines (wall time: they travel in events). */
  clock: Clock;
}

/** The website's headers as one object: names as received, repeated ones joined with ", ". */
export function headersObject(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const names = new Map<string, string>();
  for (let i = 0; i < raw.length; i += 2) {
    const lower = raw[i].toLowerCase();
    const name = names.get(lower) ?? raw[i];
    names.set(lower, name);
    out[name] = name in out ? `${out[name]}, ${raw[i + 1]}` : raw[i + 1];
  }
  return out;
}

/** A fetch that did not deliver the website's response: `ban` or `fail` with the proxy error code; the body is the message. */
export function failure(url: string, status: number, code: string, message: string, ban = false): FetchOutcome {
  return { url, originalStatus: status, headers: {}, proxyStatus: ban ? 'ban' : 'fail', error: { code, message }, body: Buffer.from(message) };
}

/**
 * Client headers the worker sets itself: the credentials (the fetch is accounted to the
 * key that called the API, never to one named in a header) and the framing of the body.
 */
const NOT_FROM_CLIENT = new Set(['proxy-authorization', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'proxy-connection']);

/** Node's request headers: one entry per name (case as first given; the client's Host wins), repeated names as arrays. */
function headerObjectOf(pairs: [string, string][]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const names = new Map<string, string>();
  for (const [n, v] of pairs) {
    const lower = n.toLowerCase();
    const name = names.get(lower) ?? n;
    names.set(lower, name);
    const old = out[name];
    if (lower === 'host') out[name] = v;
    else out[name] = old === undefined ? v : [...(Array.isArray(old) ? old : [old]), v];
  }
  return out;
}

/** Over the fetch response limit (the spec's 10 MB): the proxy's `data_error`, with its status. */
/** The pause before a request whose connection to the proxy failed is tried again. */
const PROXY_RETRY_PAUSE_MS = 200;

/** Methods a client may send twice with the effect of once (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

export function tooBigFailure(url: string, limit: number): FetchOutcome {
  return failure(url, 541, 'data_error', `Response size is too big (over ${limit} bytes, the fetch response limit)`);
}

/**
 * Does one plain fetch through crawlhub's proxy, in absolute form (https URLs too: the
 * proxy fetches them over TLS itself, no CONNECT), authenticated with a proxy token, so
 * sessions, retries, bans, throttling and the usage statistics all apply.
 */

/** A try whose connection to the proxy failed before an answer; `again`: sending it again is safe. */
interface Unreachable {
  unreachable: Error;
  again: boolean;
}

export class ProxyFetcher {
  private readonly agent: Agent;
  private readonly proxy: URL;

  constructor(private readonly options: ProxyFetcherOptions) {
    this.agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets });
    this.proxy = new URL(options.proxyUrl);
  }

  close(): void {
    this.agent.destroy();
  }

  /**
   * Never rejects: a proxy that cannot be reached is a failure `proxy_unreachable` (our
   * code), a response cut after it started is `econnreset`, no answer by the deadline is
   * `timeout`. A connection to the proxy that fails before any answer (a proxy replica
   * stopped or died, a kept-alive socket it closed as the request went out) is tried again,
   * on a new connection, until the deadline: the proxy address leads to a replica that runs.
   * A request that may have reached the proxy is sent again only when its method is
   * idempotent: a POST cut after it went out could have been forwarded, and sending it
   * twice could act twice on the website.
   */
  async fetch(r: FetchRequested, token: string): Promise<FetchOutcome> {
    for (;;) {
      const outcome = await this.fetchOnce(r, token);
      if (!('unreachable' in outcome)) return outcome;
      if (!outcome.again || r.deadline - this.options.clock.now() <= PROXY_RETRY_PAUSE_MS) return failure(r.url, 503, 'proxy_unreachable', `The fetch worker could not reach the proxy: ${outcome.unreachable.message}`);
      await new Promise((resolve) => setTimeout(resolve, PROXY_RETRY_PAUSE_MS));
    }
  }

  /** One try; `unreachable`: the connection to the proxy failed before an answer, `again`: whether sending it again is safe. */
  private fetchOnce(r: FetchRequested, token: string): Promise<FetchOutcome | Unreachable> {
    const clientHeaders = r.headers.filter(([name]) => !NOT_FROM_CLIENT.has(name.toLowerCase()));
    const headers: [string, string][] = [['Host', new URL(r.url).host], ...clientHeaders, ['Proxy-Authorization', `Basic ${Buffer.from(`${token}:`).toString('base64')}`]];
    const remaining = r.deadline - this.options.clock.now();
    // The proxy clamps it to its own bounds; the wait for a throttling slot is not part of it.
    headers.push(['X-Proxy-Timeout', String(Math.max(1, remaining))]);
    // A slot past the deadline is of no use: the proxy answers over-domain-limit (with Retry-After) at once instead.
    headers.push(['X-Proxy-Max-Wait', String(Math.max(0, remaining))]);
    if (r.jobId !== null) headers.push(['X-Proxy-JobId', r.jobId]);
    if (r.region !== null) headers.push(['X-Proxy-Region', r.region]);
    if (r.device !== null) headers.push(['X-Proxy-Profile', r.device]);
    const body = r.body === null ? null : Buffer.from(r.body, 'base64');
    if (body !== null) headers.push(['Content-Length', String(body.length)]);
    return new Promise<FetchOutcome | Unreachable>((resolve) => {
      const req = request({ agent: this.agent, host: this.proxy.hostname, port: this.proxy.port || 80, method: r.method, path: r.url, headers: headerObjectOf(headers) });
      // A timer may fire a little before the clock reaches the deadline (libuv arms it from the
      // loop's cached clock, stale by as long as the last loop turn took on a busy machine); the
      // answer says the deadline passed, so it waits until it truly has.
      let timer: NodeJS.Timeout;
      const cutAtDeadline = () => {
        const left = r.deadline - this.options.clock.now();
        if (left > 0) {
          timer = setTimeout(cutAtDeadline, left);
          return;
        }
        resolve(failure(r.url, 504, 'timeout', 'Connection timed out (the fetch deadline passed)'));
        req.destroy();
      };
      timer = setTimeout(cutAtDeadline, Math.max(1, remaining));
      const done = (o: FetchOutcome | Unreachable) => {
        clearTimeout(timer);
        resolve(o);
      };
      req.once('error', (unreachable: NodeJS.ErrnoException) => {
        // Refused: nothing went out. A kept-alive socket reset: the proxy closed it idle, unread (Node's advice).
        const notSent = unreachable.code === 'ECONNREFUSED' || (req.reusedSocket && unreachable.code === 'ECONNRESET');
        done({ unreachable, again: notSent || IDEMPOTENT.has(r.method.toUpperCase()) });
      });
      req.once('response', (res) => this.read(r.url, res).then(done));
      req.end(body ?? undefined);
    });
  }

  private async read(url: string, res: IncomingMessage): Promise<FetchOutcome> {
    const code = res.headers['x-proxy-error'];
    const status = res.statusCode ?? 502;
    if (typeof code === 'string') {
      const text = await this.collect(res, 64 * 1024);
      const message = Buffer.isBuffer(text) ? text.toString('utf8').trim() : '';
      const failed = failure(url, status, code, message, code === 'banned');
      // Throttling says when the domain has a slot again (the extraction API's "Domain … is occupied").
      const retryAfter = Number(res.headers['retry-after']);
      if (failed.error && res.headers['retry-after'] !== undefined && Number.isFinite(retryAfter)) failed.error.retryAfterSeconds = retryAfter;
      return failed;
    }
    const limit = this.options.maxResponseBytes;
    const tooBig = () => tooBigFailure(url, limit);
    if (Number(res.headers['content-length'] ?? 0) > limit) {
      res.destroy();
      return tooBig();
    }
    const body = await this.collect(res, limit);
    if (body === null) return tooBig();
    if (body === 'cut') return failure(url, 502, 'econnreset', 'The response was cut before its end');
    return { url, originalStatus: status, headers: headersObject(res.rawHeaders), proxyStatus: 'success', error: null, body };
  }

  /** The whole body, or null past `limit` bytes (the connection is then dropped), or 'cut'. */
  private collect(res: IncomingMessage, limit: number): Promise<Buffer | null | 'cut'> {
    return new Promise((resolve) => {
      const parts: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          // Settled first: destroying emits 'aborted' at once.
          resolve(null);
          return res.destroy();
        }
        parts.push(chunk);
      });
      res.once('end', () => resolve(Buffer.concat(parts)));
      // The proxy cuts a response that fails once it has started (website gone, chunk timeout).
      res.once('error', () => resolve('cut'));
      res.once('aborted', () => resolve('cut'));
    });
  }
}
