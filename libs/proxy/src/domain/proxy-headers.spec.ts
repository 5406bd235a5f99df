import { ProxyError } from './proxy-errors';
import { outgoingHeaders, parseProxyHeaders } from './proxy-headers';

const bounds = { minMs: 30_000, maxMs: 180_000 };

describe('parseProxyHeaders', () => {
  it('has the spec defaults', () => {
    const o = parseProxyHeaders({}, bounds);
    expect(o).toMatchObject({ profile: 'desktop', wholeProfile: false, noBancheck: false, maxRetries: null, timeoutMs: 30_000, session: null });
  });

  it('gives a request without our headers the same options as one whose headers change nothing', () => {
    expect(parseProxyHeaders({}, bounds)).toEqual(parseProxyHeaders({ 'x-proxy-profile-pass': '', 'x-proxy-debug': '' }, bounds));
  });

  it('reads both prefixes, X-Proxy- winning', () => {
    const o = parseProxyHeaders({ 'x-crawlera-profile': 'mobile', 'x-crawlera-no-bancheck': '1', 'x-proxy-max-retries': '2', 'x-crawlera-max-retries': '4' }, bounds);
    expect(o).toMatchObject({ profile: 'mobile', wholeProfile: true, noBancheck: true, maxRetries: 2 });
  });

  it('lets Profile win over UA and clamps Timeout and Max-Retries', () => {
    expect(parseProxyHeaders({ 'x-proxy-ua': 'mobile', 'x-proxy-profile': 'pass' }, bounds).profile).toBe('pass');
    expect(parseProxyHeaders({ 'x-proxy-timeout': '5' }, bounds).timeoutMs).toBe(30_000);
    expect(parseProxyHeaders({ 'x-proxy-timeout': '999999' }, bounds).timeoutMs).toBe(180_000);
    expect(parseProxyHeaders({ 'x-proxy-max-retries': '9' }, bounds).maxRetries).toBe(5);
  });

  it('reads crawlhub\'s Max-Wait (ms), under either prefix', () => {
    expect(parseProxyHeaders({ 'x-proxy-max-wait': '2500' }, bounds).maxWaitMs).toBe(2500);
    expect(parseProxyHeaders({ 'x-crawlera-max-wait': '0' }, bounds).maxWaitMs).toBe(0);
    expect(parseProxyHeaders({ 'x-proxy-debug': 'ua' }, bounds).maxWaitMs).toBeNull();
  });

  it.each([
    ['x-proxy-profile', 'tablet'],
    ['x-crawlera-ua', 'robot'],
    ['x-proxy-max-retries', '-1'],
    ['x-proxy-timeout', 'soon'],
    ['x-proxy-max-wait', '1.5'],
    ['x-proxy-cookies', 'enable'],
    ['x-proxy-debug', 'request-time,everything'],
    ['x-proxy-jobid', 'job 1'],
    ['x-proxy-region', 'the moon'],
  ])('answers 540 bad_header for %s: %s', (name, value) => {
    expect(() => parseProxyHeaders({ [name]: value }, bounds)).toThrow(ProxyError);
    try {
      parseProxyHeaders({ [name]: value }, bounds);
    } catch (e) {
      expect((e as ProxyError).status).toBe(540);
    }
  });

  it('reads Region (auto: any exit), never together with a session', () => {
    expect(parseProxyHeaders({ 'x-crawlera-region': 'US' }, bounds).region).toBe('us');
    expect(parseProxyHeaders({ 'x-proxy-region': 'auto' }, bounds).region).toBeNull();
    expect(parseProxyHeaders({}, bounds).region).toBeNull();
    expect(() => parseProxyHeaders({ 'x-proxy-region': 'us', 'x-proxy-session': 'create' }, bounds)).toThrow('not with X-Proxy-Session');
  });

  it('answers debug headers under the prefix used', () => {
    expect(parseProxyHeaders({ 'x-crawlera-debug': 'ua,request-time' }, bounds)).toMatchObject({ debugUa: true, debugRequestTime: true, debugNextRequestIn: false, debugPrefix: 'X-Crawlera-' });
    expect(parseProxyHeaders({ 'x-proxy-debug': 'Next-Request-In' }, bounds)).toMatchObject({ debugUa: false, debugRequestTime: false, debugNextRequestIn: true });
  });
});

describe('outgoingHeaders', () => {
  const raw = ['Host', 'a.test', 'User-Agent', 'curl/8', 'X-Proxy-Profile', 'pass', 'X-Crawlera-JobId', '1/2/3', 'Proxy-Authorization', 'Basic x', 'Connection', 'keep-alive, X-Gone', 'X-Gone', '1', 'Accept', '*/*'];
  it('removes our headers, hop-by-hop ones and Proxy-Authorization', () => {
    const { headers, userAgent } = outgoingHeaders(raw, parseProxyHeaders({ 'x-proxy-profile': 'pass' }, bounds));
    expect(headers).toEqual([['Host', 'a.test'], ['User-Agent', 'curl/8'], ['Accept', '*/*']]);
    expect(userAgent).toBe('curl/8');
  });
  it('applies the UA (default desktop) or a whole profile, keeping Profile-Pass headers', () => {
    expect(outgoingHeaders(raw, parseProxyHeaders({}, bounds)).userAgent).toMatch(/Windows NT/);
    const o = parseProxyHeaders({ 'x-proxy-profile': 'mobile', 'x-proxy-profile-pass': 'Accept' }, bounds);
    const { headers, userAgent } = outgoingHeaders(raw, o);
    expect(userAgent).toMatch(/Mobile/);
    expect(headers).toContainEqual(['Accept', '*/*']);
    expect(headers.map(([h]) => h.toLowerCase())).toContain('accept-language');
  });
});
