import type { ApiName, HostilePlatform } from './hostile-platform';
import type { WireAnswer } from './wire';
import type { Seeded } from './seed';

/**
 * A hostile case: one request, what the API must answer, and what must stay as it was.
 * Case lists live in test/hostile/cases/<family>.cases.ts; test/hostile/hostile.test.ts runs them.
 */

/** Whose credentials go with the request: the admin key, the project-1 key, the other tenant's key, none, or a raw `Authorization` value. */
export type Who = 'admin' | 'p1' | 'p2' | 'none' | { jobToken: 'running' | 'finished' } | { rawAuthorization: string };

export interface HostileRequest {
  api: ApiName;
  /** Default GET (CONNECT for a tunnel). */
  method?: string;
  /** The request target exactly as sent: origin-form, absolute-form (proxy) or authority-form (CONNECT). */
  target: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Default 'admin'. */
  as?: Who;
  /** CONNECT `target`, then this request inside the tunnel (plain HTTP, or TLS with `tls`). */
  tunnel?: { method?: string; target: string; headers?: Record<string, string>; tls?: boolean };
  /** Default 30 s. */
  timeoutMs?: number;
}

export interface Ctx {
  platform: HostilePlatform;
  seed: Seeded;
  /** Sends a request as a case would (credentials added), for seeding and checks. */
  send(r: HostileRequest): Promise<WireAnswer>;
}

export type Expectation =
  /** A 4xx (one of these statuses) in the API's error style. */
  | { kind: 'refused'; status: number[] }
  /** The proxy's refusal: one of these statuses with its `X-Proxy-Error` code and a text body (523 and 540 are the original's codes for client faults). */
  | { kind: 'proxy-error'; accept: { code: string; status: number }[] }
  /** 200 with the fetch response object, `proxy_status: fail` and this `proxy_error`. */
  | { kind: 'fetch-failure'; code: string }
  /** 200 with one result per query, each an `error` matching this. */
  | { kind: 'extraction-error'; error: RegExp }
  /** Either refused (a 4xx in style) or accepted only when `check` finds the platform kept its rules (null: fine, else what is wrong). */
  | { kind: 'refused-or-safe'; what: string; check(answer: WireAnswer, ctx: Ctx): Promise<string | null> };

export interface HostileCase {
  name: string;
  /** The numbered items of issue 14 this case checks; none: a rule the platform already claims. */
  items?: number[];
  request(ctx: Ctx): HostileRequest;
  expect: Expectation;
  /** Reads whose answers (status and bytes) must be the same before and after the case: no partial write. */
  unchanged?(ctx: Ctx): HostileRequest[];
  /** A further check after the answer (null: fine, else what is wrong). */
  after?(ctx: Ctx, answer: WireAnswer): Promise<string | null>;
}

export const refused = (...status: number[]): Expectation => ({ kind: 'refused', status: status.length ? status : [400] });
export const proxyError = (code: string, status: number, ...alternatives: [string, number][]): Expectation => ({
  kind: 'proxy-error',
  accept: [{ code, status }, ...alternatives.map(([c, s]) => ({ code: c, status: s }))],
});
export const fetchFailure = (code: string): Expectation => ({ kind: 'fetch-failure', code });
export const extractionError = (error: RegExp): Expectation => ({ kind: 'extraction-error', error });
export const refusedOrSafe = (what: string, check: (answer: WireAnswer, ctx: Ctx) => Promise<string | null>): Expectation => ({ kind: 'refused-or-safe', what, check });
