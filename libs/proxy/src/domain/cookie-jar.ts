/** How long the proxy keeps a cookie it manages (compat-notes §3.3: "kept up to 15 min"). */
export const COOKIE_KEEP_MS = 15 * 60_000;

interface StoredCookie {
  name: string;
  value: string;
  /** Lowercase; `hostOnly`: only this exact host. */
  domain: string;
  hostOnly: boolean;
  path: string;
  secure: boolean;
  /** Epoch ms after which it is gone (its own expiry, capped at 15 minutes from when it was set). */
  expires: number;
}

function defaultPath(path: string): string {
  const p = path.split('?')[0];
  if (!p.startsWith('/') || p.lastIndexOf('/') === 0) return '/';
  return p.slice(0, p.lastIndexOf('/'));
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  const p = requestPath.split('?')[0] || '/';
  return p === cookiePath || (p.startsWith(cookiePath) && (cookiePath.endsWith('/') || p[cookiePath.length] === '/'));
}

function domainMatches(host: string, c: StoredCookie): boolean {
  return c.hostOnly ? host === c.domain : host === c.domain || host.endsWith(`.${c.domain}`);
}

/**
 * The cookies the proxy keeps for one (key, exit): what websites set through that exit is
 * sent back through it, for at most 15 minutes (a subset of RFC 6265: Domain, Path,
 * Secure, Expires, Max-Age; no public-suffix list, so a Domain attribute must be a parent
 * of the host with at least one dot).
 */
export class CookieJar {
  private cookies: StoredCookie[] = [];

  constructor(private readonly maxCookies = 500) {}

  get size(): number {
    return this.cookies.length;
  }

  /** Stores the Set-Cookie headers of a response of `host` for `path`. */
  store(host: string, path: string, setCookies: string[], now: number): void {
    for (const header of setCookies) {
      const [pair, ...attrs] = header.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let domain = host;
      let hostOnly = true;
      let cpath = defaultPath(path);
      let secure = false;
      let expires = now + COOKIE_KEEP_MS;
      let maxAgeSeen = false;
      let rejected = false;
      for (const a of attrs) {
        const i = a.indexOf('=');
        const key = (i < 0 ? a : a.slice(0, i)).trim().toLowerCase();
        const val = i < 0 ? '' : a.slice(i + 1).trim();
        if (key === 'domain' && val) {
          const d = val.toLowerCase().replace(/^\./, '');
          if ((host === d || host.endsWith(`.${d}`)) && d.includes('.')) {
            domain = d;
            hostOnly = false;
          } else rejected = true;
        } else if (key === 'path' && val.startsWith('/')) cpath = val;
        else if (key === 'secure') secure = true;
        else if (key === 'max-age' && /^-?\d+$/.test(val)) {
          maxAgeSeen = true;
          expires = Math.min(now + COOKIE_KEEP_MS, now + Number(val) * 1000);
        } else if (key === 'expires' && !maxAgeSeen) {
          const t = Date.parse(val);
          if (!Number.isNaN(t)) expires = Math.min(now + COOKIE_KEEP_MS, t);
        }
      }
      if (rejected) continue;
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.domain === domain && c.path === cpath));
      if (expires > now) this.cookies.push({ name, value, domain, hostOnly, path: cpath, secure, expires });
    }
    if (this.cookies.length > this.maxCookies) this.cookies.splice(0, this.cookies.length - this.maxCookies);
  }

  /** The Cookie header for a request, or null (expired cookies are dropped). */
  header(host: string, path: string, secure: boolean, now: number): string | null {
    if (this.cookies.length === 0) return null;
    this.cookies = this.cookies.filter((c) => c.expires > now);
    const matching = this.cookies.filter((c) => domainMatches(host, c) && pathMatches(path, c.path) && (!c.secure || secure));
    matching.sort((a, b) => b.path.length - a.path.length);
    return matching.length ? matching.map((c) => `${c.name}=${c.value}`).join('; ') : null;
  }

  /** Whether it holds nothing that is still valid. */
  expired(now: number): boolean {
    return this.cookies.every((c) => c.expires <= now);
  }
}

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
