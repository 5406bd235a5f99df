import { ProxyError } from './proxy-errors';

/** The two prefixes our request headers are accepted under (spec: X-Proxy-; the original: X-Crawlera-). */
export const HEADER_PREFIXES = ['x-proxy-', 'x-crawlera-'] as const;

export type Profile = 'pass' | 'desktop' | 'mobile';

/** What a request asks of the proxy through its X-Proxy-* / X-Crawlera-* headers. */
export interface ProxyOptions {
  /** The effective profile: X-Proxy-Profile, else X-Proxy-UA (deprecated; default desktop). */
  profile: Profile;
  /** Whether the profile came from X-Proxy-Profile (a whole header set) or X-Proxy-UA (User-Agent only). */
  wholeProfile: boolean;
  /** Header names (lowercase) the profile must not override. */
  profilePass: string[];
  noBancheck: boolean;
  cookiesDisabled: boolean;
  /** `create`, a session id, or null. */
  session: string | null;
  /** The exits' region label to leave from (lowercase); null: any (absent or `auto`). */
  region: string | null;
  jobId: string | null;
  /** null: not sent (default 5, or 0 inside a session). */
  maxRetries: number | null;
  /** crawlhub's addition: the longest wait for a throttling slot the client accepts (longer: 503 over-domain-limit at once); null: up to the hard limit. */
  maxWaitMs: number | null;
  timeoutMs: number;
  debugRequestTime: boolean;
  debugUa: boolean;
  /** crawlhub's addition (`Debug: next-request-in`): X-Proxy-Next-Request-In on this response whatever the wait, not only from the soft limit on. */
  debugNextRequestIn: boolean;
  useHttps: boolean;
  /** The prefix the client used for X-*-Debug (debug headers answer under it). */
  debugPrefix: 'X-Proxy-' | 'X-Crawlera-';
}

const PROFILES: readonly string[] = ['pass', 'desktop', 'mobile'];
/** X-Proxy-Debug's values: the spec's two, and crawlhub's `next-request-in`. */
const DEBUG_VALUES: readonly string[] = ['request-time', 'ua', 'next-request-in'];
const JOB_ID = /^\d{1,15}\/\d{1,15}\/\d{1,15}$/;

/** Our header's name without its prefix (lowercase), or null when it is not ours. */
export function ourHeader(name: string): string | null {
  const n = name.toLowerCase();
  for (const p of HEADER_PREFIXES) if (n.startsWith(p)) return n.slice(p.length);
  return null;
}

/**
 * Reads our request headers (either prefix; X-Proxy- wins when both are sent). Throws
 * ProxyError bad_header (540) for a value out of the spec's domain.
 */
export function parseProxyHeaders(headers: Record<string, string | string[] | undefined>, timeout: { minMs: number; maxMs: number }): ProxyOptions {
  const ours = new Map<string, string>();
  let debugPrefix: ProxyOptions['debugPrefix'] = 'X-Proxy-';
  for (const [name, raw] of Object.entries(headers)) {
    const short = ourHeader(name);
    if (short === null || raw === undefined) continue;
    const value = (Array.isArray(raw) ? raw.join(',') : raw).trim();
    const proxyPrefix = name.toLowerCase().startsWith('x-proxy-');
    if (ours.has(short) && !proxyPrefix) continue;
    ours.set(short, value);
    if (short === 'debug') debugPrefix = proxyPrefix ? 'X-Proxy-' : 'X-Crawlera-';
  }
  if (ours.size === 0) return defaultOptions(timeout.minMs);
  const bad = (name: string, value: string): never => {
    throw new ProxyError('bad_header', `X-Proxy-${name}: ${value.slice(0, 100)}`);
  };
  const profileValue = (name: string): Profile | undefined => {
    const v = ours.get(name.toLowerCase());
    if (v === undefined) return undefined;
    const l = v.toLowerCase();
    if (!PROFILES.includes(l)) bad(name, v);
    return l as Profile;
  };
  const profile = profileValue('Profile');
  const ua = profileValue('UA');
  const int = (name: string): number | null => {
    const v = ours.get(name.toLowerCase());
    if (v === undefined) return null;
    if (!/^\d{1,9}$/.test(v)) bad(name, v);
    return Number(v);
  };
  const retries = int('Max-Retries');
  const maxWait = int('Max-Wait');
  const timeoutRaw = int('Timeout');
  const cookies = ours.get('cookies');
  if (cookies !== undefined && cookies.toLowerCase() !== 'disable') bad('Cookies', cookies);
  const session = ours.get('session');
  if (session !== undefined && !/^[A-Za-z0-9_.:-]{1,128}$/.test(session)) bad('Session', session);
  const regionValue = ours.get('region');
  if (regionValue !== undefined && !/^[a-z0-9-]{1,16}$/i.test(regionValue)) bad('Region', regionValue);
  const region = regionValue === undefined || regionValue.toLowerCase() === 'auto' ? null : regionValue.toLowerCase();
  // The original refuses the two together: a session is already pinned to its exit.
  if (region !== null && session !== undefined) bad('Region', `${regionValue} (not with X-Proxy-Session)`);
  const jobId = ours.get('jobid');
  if (jobId !== undefined && !JOB_ID.test(jobId)) bad('JobId', jobId);
  const debug = (ours.get('debug') ?? '').split(',').map((d) => d.trim().toLowerCase()).filter(Boolean);
  for (const d of debug) if (!DEBUG_VALUES.includes(d)) bad('Debug', d);
  const useHttps = ours.get('use-https');
  if (useHttps !== undefined && useHttps !== '1') bad('Use-Https', useHttps);
  const pass = (ours.get('profile-pass') ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  if (pass.some((h) => !/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(h))) bad('Profile-Pass', ours.get('profile-pass') ?? '');
  return {
    profile: profile ?? ua ?? 'desktop',
    wholeProfile: profile !== undefined,
    profilePass: pass,
    noBancheck: ours.has('no-bancheck'),
    cookiesDisabled: cookies !== undefined,
    session: session ?? null,
    region,
    jobId: jobId ?? null,
    maxRetries: retries === null ? null : Math.min(retries, 5),
    maxWaitMs: maxWait,
    timeoutMs: timeoutRaw === null ? timeout.minMs : Math.min(timeout.maxMs, Math.max(timeout.minMs, timeoutRaw)),
    debugRequestTime: debug.includes('request-time'),
    debugUa: debug.includes('ua'),
    debugNextRequestIn: debug.includes('next-request-in'),
    useHttps: useHttps !== undefined,
    debugPrefix,
  };
}

/** What a request without any of our headers gets (most requests: no parsing). */
function defaultOptions(timeoutMs: number): ProxyOptions {
  return {
    profile: 'desktop',
    wholeProfile: false,
    profilePass: [],
    noBancheck: false,
    cookiesDisabled: false,
    session: null,
    region: null,
    jobId: null,
    maxRetries: null,
    maxWaitMs: null,
    timeoutMs,
    debugRequestTime: false,
    debugUa: false,
    debugNextRequestIn: false,
    useHttps: false,
    debugPrefix: 'X-Proxy-',
  };
}

const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
/** The browser header sets of the profiles (X-Proxy-UA applies only their User-Agent). */
export const PROFILE_HEADERS: Record<'desktop' | 'mobile', Record<string, string>> = {
  desktop: {
    'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    accept: ACCEPT,
    'accept-language': 'en-US,en;q=0.9',
    'upgrade-insecure-requests': '1',
  },
  mobile: {
    'user-agent': 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    accept: ACCEPT,
    'accept-language': 'en-US,en;q=0.9',
    'upgrade-insecure-requests': '1',
  },
};

const HOP_BY_HOP = new Set(['expect', 'connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'via']);

/**
 * The headers sent to the website: the client's, without hop-by-hop headers, our headers
 * and Proxy-Authorization (no Via added), with the profile applied. Returns them as
 * [name, value] pairs (case and order kept) and the User-Agent applied.
 */
export function outgoingHeaders(rawHeaders: string[], options: ProxyOptions, extra: [string, string][] = []): { headers: [string, string][]; userAgent: string | null } {
  const connectionTokens = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() === 'connection') rawHeaders[i + 1].split(',').forEach((t) => connectionTokens.add(t.trim().toLowerCase()));
  }
  let headers: [string, string][] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const n = rawHeaders[i].toLowerCase();
    if (HOP_BY_HOP.has(n) || connectionTokens.has(n) || ourHeader(n) !== null) continue;
    headers.push([rawHeaders[i], rawHeaders[i + 1]]);
  }
  for (const [n, v] of extra) {
    headers = headers.filter(([h]) => h.toLowerCase() !== n.toLowerCase());
    headers.push([n, v]);
  }
  if (options.profile !== 'pass') {
    const set = PROFILE_HEADERS[options.profile];
    const apply = options.wholeProfile ? Object.keys(set) : ['user-agent'];
    for (const name of apply) {
      if (options.profilePass.includes(name) && headers.some(([h]) => h.toLowerCase() === name)) continue;
      headers = headers.filter(([h]) => h.toLowerCase() !== name);
      headers.push([name === 'user-agent' ? 'User-Agent' : name.replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase()), set[name]]);
    }
  }
  const ua = headers.find(([h]) => h.toLowerCase() === 'user-agent');
  return { headers, userAgent: ua ? ua[1] : null };
}
