import { COOKIE_KEEP_MS, CookieJar, CookieJars } from './cookie-jar';

describe('CookieJar', () => {
  const now = 1_000_000;
  it('sends back what the site set, by domain, path and scheme', () => {
    const jar = new CookieJar();
    jar.store('www.shop.test', '/cart/view', ['sid=1; Path=/', 'pref=a', 'wide=w; Domain=.shop.test', 'sec=s; Secure; Path=/', 'evil=e; Domain=other.test'], now);
    expect(jar.header('www.shop.test', '/cart/x', false, now)).toBe('pref=a; wide=w; sid=1');
    expect(jar.header('www.shop.test', '/', true, now)).toBe('sid=1; sec=s');
    expect(jar.header('api.shop.test', '/cart/y', false, now)).toBe('wide=w');
    expect(jar.header('other.test', '/', false, now)).toBeNull();
  });

  it('keeps cookies at most 15 minutes, honours Max-Age and deletion', () => {
    const jar = new CookieJar();
    jar.store('a.test', '/', ['long=1; Max-Age=86400', 'short=2; Max-Age=10', 'gone=3'], now);
    expect(jar.header('a.test', '/', false, now + 11_000)).toBe('long=1; gone=3');
    jar.store('a.test', '/', ['gone=; Max-Age=0'], now + 12_000);
    expect(jar.header('a.test', '/', false, now + 12_000)).toBe('long=1');
    expect(jar.header('a.test', '/', false, now + COOKIE_KEEP_MS + 1)).toBeNull();
  });

  it('keeps one jar per key and exit', () => {
    const jars = new CookieJars();
    jars.jar('k1', 'e1', now).store('a.test', '/', ['x=1'], now);
    expect(jars.jar('k1', 'e1', now).header('a.test', '/', false, now)).toBe('x=1');
    expect(jars.jar('k1', 'e2', now).header('a.test', '/', false, now)).toBeNull();
    expect(jars.jar('k2', 'e1', now).header('a.test', '/', false, now)).toBeNull();
  });
});
