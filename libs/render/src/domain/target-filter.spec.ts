import { TargetPolicy } from '@crawlhub/net';
import { guardedUrlPatterns, mayRequest } from './target-filter';

/** URLs of private, loopback and link-local targets, in many spellings. */
const PRIVATE_URLS = [
    'http://127.0.0.1:8080/',
    'http://127.1/',
    'http://0x7f.0.0.1/',
    'http://2130706433/',
    'http://10.1.2.3/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[0000::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[::]/',
    'http://169.254.169.254/latest',
    'ws://127.0.0.1:9222/devtools',
    'http://localhost/',
    'http://a.localhost/',
    'http://[::ffff:192.168.0.1]/',
];

describe('mayRequest', () => {
  const guarded = new TargetPolicy({ allowPrivate: false, allowed: [] });
  const open = new TargetPolicy({ allowPrivate: true, allowed: [] });

  it.each(PRIVATE_URLS)('refuses %s unless private targets are allowed', (url) => {
    expect(mayRequest(url, guarded)).toBe(false);
    expect(mayRequest(url, open)).toBe(true);
  });

  it('lets through the listed addresses, in every spelling, and localhost when 127.0.0.1 is listed', () => {
    const listed = new TargetPolicy({ allowPrivate: false, allowed: ['127.0.0.0/8'] });
    for (const url of ['http://127.0.0.1:8080/', 'http://0x7f.1/', 'http://[::ffff:7f00:1]/', 'http://localhost/']) expect([url, mayRequest(url, listed)]).toEqual([url, true]);
    for (const url of ['http://[::1]/', 'http://10.0.0.1/']) expect([url, mayRequest(url, listed)]).toEqual([url, false]);
  });

  it('leaves names to the proxy and passes public literals and in-page schemes', () => {
    expect(mayRequest('https://example.com/a', guarded)).toBe(true);
    expect(mayRequest('http://93.184.216.34/', guarded)).toBe(true);
    expect(mayRequest('http://[2606:4700:4700::1111]/', guarded)).toBe(true);
    expect(mayRequest('data:text/css,body{}', guarded)).toBe(true);
    expect(mayRequest('about:blank', guarded)).toBe(true);
  });

  it('refuses files, browser internals and garbage even when private targets are allowed', () => {
    expect(mayRequest('file:///etc/passwd', open)).toBe(false);
    expect(mayRequest('chrome://version', open)).toBe(false);
    expect(mayRequest('not a url', open)).toBe(false);
  });
});

describe('guardedUrlPatterns', () => {
  /** Whether a DevTools Fetch pattern (`*` any characters, `?` one) matches `url`. */
  const matches = (pattern: string, url: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(url);
  /** A request URL as Chromium spells it (the WHATWG canonical form, which it follows for hosts). */
  const paused = (targets: TargetPolicy, url: string) => guardedUrlPatterns(targets).some((p) => matches(p, new URL(url).href));
  const guarded = new TargetPolicy({ allowPrivate: false, allowed: [] });
  const open = new TargetPolicy({ allowPrivate: true, allowed: [] });

  // WebSockets never pause in the Fetch domain; they go through the proxy, which guards them.
  it.each([...PRIVATE_URLS.filter((url) => url.startsWith('http')), 'http://user:pw@127.0.0.1/', 'https://LOCALHOST./', 'http://a.b.localhost:81/x', 'https://0177.0.0.1/'])(
    'pauses %s for the guard, whatever its spelling',
    (url) => expect(paused(guarded, url)).toBe(true),
  );

  it('lets requests to names go without a pause, and every request when private targets are allowed', () => {
    expect(paused(guarded, 'https://example.com/a?b=c')).toBe(false);
    expect(paused(open, 'http://127.0.0.1:8080/')).toBe(false);
    expect(paused(open, 'https://example.com/a')).toBe(false);
  });
});
