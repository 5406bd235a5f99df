import { Cookie, CookieJar as RfcCookieJar, MemoryCookieStore } from 'tough-cookie';

/** How long the proxy keeps a cookie it manages (compat-notes §3.3: "kept up to 15 min"). */
export const COOKIE_KEEP_MS = 15 * 60_000;

/**
 * The cookies the proxy keeps for one (key, exit): what websites set through that exit is
 * sent back through it, for at most 15 minutes. tough-cookie decides what a browser would
 * (RFC 6265 with the public-suffix list: a cookie for `co.uk` or `github.io` is refused,
 * Secure cookies only come from and go to https); the 15-minute cap, the size bound and the
 * clock (`now`, for tests) are the proxy's.
 */
export class CookieJar {
  private readonly memory = new MemoryCookieStore();
  private readonly jar = new RfcCookieJar(this.memory, { rejectPublicSuffixes: true });
  /** When the last of its cookies expires (nothing left after that). */
  private lastExpiry = 0;

  constructor(private readonly maxCookies = 500) {}

  /** Stores the Set-Cookie headers of a response to `url`; the ones a browser would refuse are dropped. */
  store(url: string, setCookies: string[], now: number): void {
    const at = new Date(now);
    for (const header of setCookies) {
      const cookie = Cookie.parse(header);
      if (!cookie) continue;
      // Max-Age (relative to now) or Expires, at most 15 minutes; Max-Age=0 deletes.
      const expiry = Math.min(cookie.expiryTime(at) ?? Infinity, now + COOKIE_KEEP_MS);
      cookie.maxAge = null;
      cookie.expires = new Date(Math.max(expiry, 0));
      this.lastExpiry = Math.max(this.lastExpiry, expiry);
      this.jar.setCookieSync(cookie, url, { now: at, ignoreError: true });
    }
    const all = this.all();
    if (all.length <= this.maxCookies) return;
    // Over the bound: the expired ones go, then the oldest.
    const doomed = all.filter((c) => expiryOf(c) <= now);
    const kept = all.filter((c) => expiryOf(c) > now);
    doomed.push(...kept.slice(0, Math.max(0, kept.length - this.maxCookies)));
    // (A stored cookie always has its domain and path: the jar sets them.)
    for (const c of doomed) this.memory.removeCookie(c.domain!, c.path!, c.key, ignoreError);
  }

  /** The Cookie header for a request to `url`, or null. */
  header(url: string, now: number): string | null {
    if (this.lastExpiry <= now) return null;
    // Expiry against our clock (`expire: false`: tough-cookie's own check reads the system clock).
    const cookies = this.jar.getCookiesSync(url, { expire: false, sort: true }).filter((c) => expiryOf(c) > now);
    return cookies.length ? cookies.map((c) => c.cookieString()).join('; ') : null;
  }

  /** Whether it holds nothing that is still valid. */
  expired(now: number): boolean {
    return this.lastExpiry <= now;
  }

  private all(): Cookie[] {
    // The memory store answers synchronously (it is what tough-cookie's *Sync methods rely on).
    let cookies: Cookie[] = [];
    this.memory.getAllCookies((_e, found) => (cookies = found ?? []));
    return cookies;
  }
}

function expiryOf(c: Cookie): number {
  return c.expiryTime() ?? Infinity;
}

function ignoreError(): void {}

/** The jars of every (key, exit), dropped when empty or expired. */
export class CookieJars {
  private readonly jars = new Map<string, CookieJar>();

  constructor(private readonly maxJars = 20_000) {}

  jar(user: string, exitId: string, now: number): CookieJar {
    const id = `${user}\n${exitId}`;
    let j = this.jars.get(id);
    if (!j) {
      if (this.jars.size >= this.maxJars) {
        for (const [k, v] of this.jars) if (v.expired(now)) this.jars.delete(k);
        if (this.jars.size >= this.maxJars) this.jars.delete(this.jars.keys().next().value as string);
      }
      j = new CookieJar();
      this.jars.set(id, j);
    }
    return j;
  }
}
