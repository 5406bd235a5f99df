import { TargetPolicy } from '@crawlhub/net';
import { mayRequest } from './target-filter';

describe('mayRequest', () => {
  const guarded = new TargetPolicy({ allowPrivate: false, allowed: [] });
  const open = new TargetPolicy({ allowPrivate: true, allowed: [] });

  it.each([
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
  ])('refuses %s unless private targets are allowed', (url) => {
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
