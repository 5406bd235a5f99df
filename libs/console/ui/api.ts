// How the console talks to the platform: the same public APIs the clients use, on this
// origin (the dash API under /api, the storage API under /storage, the usage stats under
// /stats), signed in by the session cookie. Changing requests carry the session's CSRF
// proof, which the APIs check (libs/http RequestPrincipal). The answers' types are the
// platform's own (@crawlhub/wire, types only: nothing of the server enters the bundle).

import type { ConsoleSession } from '@crawlhub/wire';

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** Who is signed in (the console's session answer). */
export type Me = ConsoleSession;

let csrf: string | null = null;

export function setCsrf(token: string | null): void {
  csrf = token;
}

export type Params = Record<string, string | number | boolean | undefined | null | (string | number)[]>;

/** A query string of `params` (arrays repeat the name; empty values are left out). */
export function query(params: Params = {}): string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    for (const v of Array.isArray(value) ? value : [value]) q.append(name, String(v));
  }
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** fetch on this origin; an answer that is not 2xx becomes an ApiError with the API's own message. */
export async function call(url: string, init: RequestInit = {}): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = new Headers(init.headers);
  if (method !== 'GET' && method !== 'HEAD' && csrf) headers.set('X-CSRF-Token', csrf);
  const res = await fetch(url, { ...init, headers, credentials: 'same-origin' });
  if (!res.ok) {
    const text = (await res.text()).trim();
    let message = text || res.statusText;
    try {
      const parsed = JSON.parse(text) as { message?: string; detail?: string };
      message = parsed.message ?? parsed.detail ?? message;
    } catch {
      /* plain-text errors (the storage API's style) are the message */
    }
    throw new ApiError(res.status, `${res.status}: ${message}`);
  }
  return res;
}

/** The dash API (/api): GET with a query, POST with a form, as the clients send them. */
export const dash = {
  async get<T>(path: string, params: Params = {}): Promise<T> {
    return (await call(`/api/${path}${query(params)}`)).json() as Promise<T>;
  },
  async post<T>(path: string, params: Params): Promise<T> {
    const body = query(params).slice(1);
    return (await call(`/api/${path}`, { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })).json() as Promise<T>;
  },
};

function jsonLines<T>(text: string): T[] {
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as T);
}

/** The storage API (/storage): JSON lines and JSON answers. */
export const storage = {
  async lines<T>(path: string, params: Params = {}): Promise<T[]> {
    return jsonLines<T>(await (await call(`/storage/${path}${query(params)}`)).text());
  },
  async json<T>(path: string, params: Params = {}): Promise<T> {
    return (await call(`/storage/${path}${query(params)}`)).json() as Promise<T>;
  },
  async delete(path: string): Promise<void> {
    await call(`/storage/${path}`, { method: 'DELETE' });
  },
};

export const stats = {
  async get<T>(params: Params): Promise<T> {
    return (await call(`/stats/stats${query(params)}`)).json() as Promise<T>;
  },
};

export const session = {
  async me(): Promise<Me | null> {
    try {
      return (await call('/console/session')).json() as Promise<Me>;
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return null;
      throw e;
    }
  },
  async signIn(apikey: string): Promise<Me> {
    return (await call('/console/session', { method: 'POST', body: JSON.stringify({ apikey }), headers: { 'Content-Type': 'application/json' } })).json() as Promise<Me>;
  },
  async signOut(): Promise<void> {
    await call('/console/session', { method: 'DELETE' });
  },
};
