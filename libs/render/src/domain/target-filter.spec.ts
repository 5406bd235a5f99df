import { mayRequest } from './target-filter';

describe('mayRequest', () => {
  it.each(['http://127.0.0.1:8080/', 'http://10.1.2.3/', 'http://[::1]/', 'http://169.254.169.254/latest', 'http://localhost/', 'http://a.localhost/', 'http://[::ffff:192.168.0.1]/'])('refuses %s unless private targets are allowed', (url) => {
    expect(mayRequest(url, false)).toBe(false);
    expect(mayRequest(url, true)).toBe(true);
  });

  it('leaves names to the proxy and passes public literals and in-page schemes', () => {
    expect(mayRequest('https://example.com/a', false)).toBe(true);
    expect(mayRequest('http://93.184.216.34/', false)).toBe(true);
    expect(mayRequest('data:text/css,body{}', false)).toBe(true);
    expect(mayRequest('about:blank', false)).toBe(true);
  });

  it('refuses files, browser internals and garbage even when private targets are allowed', () => {
    expect(mayRequest('file:///etc/passwd', true)).toBe(false);
    expect(mayRequest('chrome://version', true)).toBe(false);
    expect(mayRequest('not a url', true)).toBe(false);
  });
});
