import { IncomingHttpHeaders, request } from 'node:http';
import { basic } from './platform';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Send {
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Send through this HTTP proxy (`http://127.0.0.1:<port>`), the URL in absolute form. */
  proxy?: string;
}

/**
 * What a client of a fleet retries, and nothing else: a connection that failed or was cut
 * (its server died), and 503 with Retry-After (every API's "retry later": views lagging, no
 * worker answered, the log refused an append). A 503 without Retry-After is an answer.
 */
export type RetrySignal = 'connection' | 'retry-after';

/**
 * An HTTP client as a well-behaved client of a fleet is: a new connection per request
 * (through the service address, which picks a replica), the admin key as HTTP Basic user,
 * and retries on the signals a client is told to retry on: a connection refused, reset or
 * cut before the answer (its server died), and 503 with Retry-After (waited for, at most
 * a second here). Each retry is counted by signal; any other answer is returned, and one
 * not answered within `deadlineMs` throws.
 */
export class RetryingClient {
  readonly retries: Record<RetrySignal, number> = { connection: 0, 'retry-after': 0 };
  /** Requests sent (each `send`, however many tries it took). */
  requests = 0;
  /** Each retry: when, the signal and the request, for the report of a failed check. */
  readonly retryLog: string[] = [];

  constructor(
    private readonly key: string,
    private readonly deadlineMs = 90_000,
  ) {}

  async send(url: string, options: Send = {}): Promise<Answer> {
    this.requests++;
    const until = Date.now() + this.deadlineMs;
    for (;;) {
      let signal: RetrySignal;
      let why: string;
      try {
        const answer = await this.sendOnce(url, options);
        if (answer.status !== 503 || answer.headers['retry-after'] === undefined) return answer;
        signal = 'retry-after';
        why = `503 ${answer.body.slice(0, 200)}`;
      } catch (e) {
        signal = 'connection';
        why = (e as Error).message;
      }
      this.retries[signal]++;
      this.retryLog.push(`${new Date().toISOString()} ${signal} ${options.method ?? 'GET'} ${url}: ${why}`);
      if (Date.now() > until) throw new Error(`${options.method ?? 'GET'} ${url}: not answered in ${this.deadlineMs} ms (last: ${why})`);
      await new Promise((r) => setTimeout(r, signal === 'retry-after' ? 1000 : 200));
    }
  }

  /** `send`, then the body as JSON, which must come with `status`. */
  async json<T>(url: string, options: Send = {}, status = 200): Promise<T> {
    const answer = await this.send(url, options);
    if (answer.status !== status) throw new Error(`${options.method ?? 'GET'} ${url}: ${answer.status} ${answer.body.slice(0, 500)}`);
    return JSON.parse(answer.body) as T;
  }

  /** One attempt: no retry, a connection failure throws. */
  sendOnce(url: string, options: Send = {}): Promise<Answer> {
    const target = new URL(options.proxy ?? url);
    const auth = options.proxy ? { 'proxy-authorization': basic(this.key) } : { authorization: basic(this.key) };
    return new Promise((resolve, reject) => {
      const req = request(
        { host: target.hostname, port: target.port, method: options.method ?? 'GET', path: options.proxy ? url : `${target.pathname}${target.search}`, agent: false, headers: { ...auth, ...options.headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          // A response cut before its end (its server died) is a connection failure too.
          res.on('aborted', () => reject(new Error('answer cut')));
          res.on('end', () => (res.complete ? resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }) : reject(new Error('answer cut'))));
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });
  }
}
