import { Ctx, HostileCase, HostileRequest, proxyError, refused, refusedOrSafe, Who } from '../support/case';
import { TWO_POW_64 } from '../support/payloads';
import { LOOPBACK_SPELLINGS, URL_SPELLINGS } from './ssrf-spellings';

/**
 * Smart proxy (:8010): absolute-form requests, CONNECT tunnels, the legacy /fetch and
 * /sessions. Errors carry X-Proxy-Error (and X-Crawlera-Error) with a text body; the
 * original's codes for refused targets and bad headers are 523 and 540 (docs/proxy.md).
 */

const proxied = (url: string, headers: Record<string, string> = {}, as: Who = 'p1'): HostileRequest => ({ api: 'proxy', target: url, headers: { host: hostOf(url), ...headers }, as });
const hostOf = (url: string) => /^[a-z]+:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '';
const direct = (target: string, as: Who = 'p1', method = 'GET'): HostileRequest => ({ api: 'proxy', target, as, method });
const sessions = (): HostileRequest[] => [direct('/sessions', 'p1')];
const NXDOMAIN_URL = 'http://hostile.invalid/';
/**
 * A public unicast address the guard lets through, so what follows it is checked (the
 * documentation ranges such as TEST-NET-2 are not: the guard refuses every address that is
 * not global unicast). Nothing leaves the machine: the proxy's only exit is the test's
 * loopback upstream proxy, which counts what reaches it.
 */
const PUBLIC_URL = 'http://8.8.8.8/';

const authCases: HostileCase[] = [
  { name: 'a proxied request without a key', request: () => proxied(NXDOMAIN_URL, {}, 'none'), expect: proxyError('bad_proxy_auth', 407) },
  { name: 'a proxied request with an unknown key', request: () => proxied(NXDOMAIN_URL, {}, { rawAuthorization: 'Basic eDo=' }), expect: proxyError('bad_proxy_auth', 407) },
  { name: 'a proxied request with a job token', request: () => proxied(NXDOMAIN_URL, {}, { jobToken: 'running' }), expect: proxyError('bad_proxy_auth', 407) },
  { name: 'a CONNECT without a key', request: () => ({ api: 'proxy', target: 'hostile.invalid:443', as: 'none', tunnel: { target: '/' } }), expect: proxyError('bad_proxy_auth', 407) },
  { name: "X-Proxy-JobId of the other tenant's project", request: (c) => proxied(NXDOMAIN_URL, { 'x-proxy-jobid': c.seed.runningJob }, 'p2'), expect: proxyError('header_auth', 470) },
];

const headerCases: HostileCase[] = [
  ...[
    ['X-Proxy-Max-Retries', '-1'],
    ['X-Proxy-Max-Retries', '1.5'],
    ['X-Proxy-Max-Retries', 'NaN'],
    ['X-Proxy-Max-Retries', TWO_POW_64],
    ['X-Crawlera-Max-Retries', 'many'],
    ['X-Proxy-Timeout', 'abc'],
    ['X-Proxy-Timeout', '1e3'],
    ['X-Proxy-Timeout', '-5'],
    ['X-Proxy-Max-Wait', '-1'],
    ['X-Proxy-Profile', 'fridge'],
    ['X-Proxy-UA', 'toaster'],
    ['X-Proxy-Cookies', 'maybe'],
    ['X-Proxy-Region', 'narnia'],
    ['X-Proxy-Use-Https', '2'],
    ['X-Proxy-Debug', 'everything'],
    ['X-Proxy-JobId', '../../x'],
    ['X-Proxy-JobId', `1/1/${TWO_POW_64}`],
  ].map(([name, value]) => ({ name: `${name}: ${value}`, items: value === `1/1/${TWO_POW_64}` ? [6] : undefined, request: () => proxied(PUBLIC_URL, { [name]: value }), expect: proxyError('bad_header', 540) })),
  { name: 'X-Proxy-Session of an unknown id', request: () => proxied(PUBLIC_URL, { 'x-proxy-session': 'not-a-session' }), expect: proxyError('bad_session_id', 400), unchanged: sessions },
  { name: 'X-Proxy-Session of 10,000 characters', request: () => proxied(PUBLIC_URL, { 'x-proxy-session': '9'.repeat(10_000) }), expect: proxyError('bad_session_id', 400, ['bad_header', 540]), unchanged: sessions },
  { name: "X-Proxy-Session of another key's session", request: (c) => proxied(PUBLIC_URL, { 'x-proxy-session': c.seed.sessionId }, 'p2'), expect: proxyError('bad_session_id', 400), unchanged: sessions },
  { name: 'request headers of 200 KiB', request: () => proxied(NXDOMAIN_URL, { 'x-filler': 'f'.repeat(200 * 1024) }), expect: refused(431) },
];

const targetCases: HostileCase[] = [
  { name: 'a target on port 0', request: () => proxied('http://hostile.invalid:0/'), expect: proxyError('bad_header', 540) },
  { name: 'a target on port 99999', request: () => proxied('http://hostile.invalid:99999/'), expect: proxyError('bad_header', 540) },
  { name: 'an ftp: target', request: () => proxied('ftp://hostile.invalid/'), expect: proxyError('bad_header', 540) },
  { name: 'a CONNECT to port 0', request: () => ({ api: 'proxy', target: 'hostile.invalid:0', as: 'p1', tunnel: { target: '/' } }), expect: proxyError('bad_header', 540) },
  { name: 'a CONNECT without a port', request: () => ({ api: 'proxy', target: 'hostile.invalid', as: 'p1', tunnel: { target: '/' } }), expect: proxyError('bad_header', 540) },
  { name: 'a CONNECT to an unclosed IPv6 literal', request: () => ({ api: 'proxy', target: '[::1:443', as: 'p1', tunnel: { target: '/' } }), expect: proxyError('bad_header', 540) },
  {
    name: 'inside a tunnel to a public name, an absolute-form request to loopback (the tunnel names the target)',
    request: (c) => ({ api: 'proxy', target: 'hostile.invalid:80', as: 'p1', tunnel: { target: `http://127.0.0.1:${c.platform.canary.port}/in-tunnel`, headers: { host: `127.0.0.1:${c.platform.canary.port}` } } }),
    expect: proxyError('nxdomain', 502, ['domain_forbidden', 523]),
  },
  {
    name: 'inside a tunnel to a public name, a Host header naming loopback (the tunnel names the target)',
    request: (c) => ({ api: 'proxy', target: 'hostile.invalid:80', as: 'p1', tunnel: { target: '/in-tunnel', headers: { host: `[::1]:${c.platform.canary.port}` } } }),
    expect: proxyError('nxdomain', 502),
  },
  { name: 'an origin-form request to an unknown route', request: () => direct('/admin'), expect: refused(404) },
  { name: 'an origin-form request with a Host naming loopback', request: (c) => ({ ...direct('/'), headers: { host: `127.0.0.1:${c.platform.canary.port}` } }), expect: refused(404) },
];

const legacyCases: HostileCase[] = [
  { name: 'legacy /fetch without url', request: () => direct('/fetch'), expect: refused(400) },
  { name: 'legacy /fetch of a file: URL', request: () => direct(`/fetch?url=${encodeURIComponent('file:///etc/passwd')}`), expect: refused(400) },
  { name: 'legacy /fetch of a javascript: URL', request: () => direct(`/fetch?url=${encodeURIComponent('javascript:alert(1)')}`), expect: refused(400) },
  { name: 'legacy /fetch without a key', request: () => direct(`/fetch?url=${encodeURIComponent(NXDOMAIN_URL)}`, 'none'), expect: proxyError('bad_proxy_auth', 407) },
  { name: 'legacy /fetch with a header value holding CR LF', request: () => direct(`/fetch?url=${encodeURIComponent(NXDOMAIN_URL)}&headers=${encodeURIComponent('X-A:b\r\nX-Injected:1')}`), expect: proxyError('bad_header', 540) },
  { name: 'legacy /fetch with X-Proxy-Max-Retries: -1 in headers', request: () => direct(`/fetch?url=${encodeURIComponent(NXDOMAIN_URL)}&headers=${encodeURIComponent('X-Proxy-Max-Retries:-1')}`), expect: proxyError('bad_header', 540) },
];

const sessionCases: HostileCase[] = [
  { name: 'POST /sessions without a key', request: () => direct('/sessions', 'none', 'POST'), expect: refused(401), unchanged: sessions },
  { name: "DELETE another key's session", request: (c) => direct(`/sessions/${c.seed.sessionId}`, 'p2', 'DELETE'), expect: proxyError('bad_session_id', 400), unchanged: sessions },
  { name: 'DELETE a session id that is not one', request: () => direct('/sessions/..%2F..%2Fx', 'p1', 'DELETE'), expect: proxyError('bad_session_id', 400), unchanged: sessions },
  { name: 'DELETE a session id of 10,000 digits', request: () => direct(`/sessions/${'9'.repeat(10_000)}`, 'p1', 'DELETE'), expect: proxyError('bad_session_id', 400), unchanged: sessions },
  {
    name: "GET /sessions by the other tenant does not list project 1's session",
    request: () => direct('/sessions', 'p2'),
    expect: refusedOrSafe("lists only the caller's sessions", async (a, c) => (a.body.toString().includes(c.seed.sessionId) ? `it lists ${c.seed.sessionId}` : null)),
  },
];

const TLS_SPELLINGS = ['[::1]', '[0:0:0:0:0:0:0:1]', '[::ffff:127.0.0.1]', '127.0.0.1'];

const ssrfCases: HostileCase[] = [
  ...URL_SPELLINGS.map((s) => ({
    name: `SSRF absolute-form: ${s.label} (${s.host})`,
    items: s.items,
    request: (c: Ctx) => proxied(`http://${s.host}:${c.platform.canary.port}/proxy-ssrf`),
    expect: proxyError('domain_forbidden', 523),
  })),
  ...LOOPBACK_SPELLINGS.map((s) => ({
    name: `SSRF CONNECT: ${s.label} (${s.host})`,
    items: s.items,
    request: (c: Ctx): HostileRequest => ({
      api: 'proxy',
      target: `${s.host}:${c.platform.canary.port}`,
      as: 'p1',
      headers: { host: `${s.host}:${c.platform.canary.port}` },
      tunnel: { target: '/connect-ssrf', headers: { host: `${s.host}:${c.platform.canary.port}` } },
    }),
    // A zone id may also be refused as a malformed target.
    expect: s.connectOnly ? proxyError('domain_forbidden', 523, ['bad_header', 540]) : proxyError('domain_forbidden', 523),
  })),
  ...TLS_SPELLINGS.map((host) => ({
    name: `SSRF CONNECT then TLS: ${host}`,
    // Item 2: the TLS side of an IPv6 literal (its host name taken as "[").
    items: host.startsWith('[') ? [2] : undefined,
    request: (c: Ctx): HostileRequest => ({
      api: 'proxy',
      target: `${host}:${c.platform.canary.port}`,
      as: 'p1',
      headers: { host: `${host}:${c.platform.canary.port}` },
      tunnel: { target: '/connect-tls-ssrf', headers: { host: `${host}:${c.platform.canary.port}` }, tls: true },
    }),
    expect: proxyError('domain_forbidden', 523),
  })),
  ...URL_SPELLINGS.map((s) => ({
    name: `SSRF legacy /fetch: ${s.label} (${s.host})`,
    items: s.items,
    request: (c: Ctx) => direct(`/fetch?url=${encodeURIComponent(`http://${s.host}:${c.platform.canary.port}/legacy-ssrf`)}`),
    expect: proxyError('domain_forbidden', 523),
  })),
  {
    name: 'SSRF absolute-form with X-Proxy-Use-Https to loopback',
    request: (c) => proxied(`http://127.0.0.1:${c.platform.canary.port}/`, { 'x-proxy-use-https': '1' }),
    expect: proxyError('domain_forbidden', 523),
  },
];

export const PROXY_CASES: HostileCase[] = [...authCases, ...headerCases, ...targetCases, ...legacyCases, ...sessionCases, ...ssrfCases];
