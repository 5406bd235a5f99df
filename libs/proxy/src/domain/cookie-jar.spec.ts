import { COOKIE_KEEP_MS, CookieJar, CookieJars } from './cookie-jar';

describe('CookieJar', () => {
  const now = Date.UTC(2026, 0, 1);

  it('sends back what the site set, by domain, path and scheme; host-only cookies to their host only', () => {
    const jar = new CookieJar();
    jar.store('https://www.shop.example/cart/view', ['sid=1; Path=/', 'pref=a', 'wide=w; Domain=.shop.example', 'sec=s; Secure; Path=/', 'evil=e; Domain=other.example'], now);
    expect(jar.header('http://www.shop.example/cart/x', now)).toBe('pref=a; wide=w; sid=1');
    expect(jar.header('https://www.shop.example/', now)).toBe('sid=1; sec=s');
    expect(jar.header('http://api.shop.example/cart/y', now)).toBe('wide=w');
    expect(jar.header('http://shop.example/cart/', now)).toBe('wide=w');
    expect(jar.header('http://other.example/', now)).toBeNull();
    // Host-only on an IP address (of any kind): that address only.
    jar.store('http://127.0.0.1:8080/a', ['ip=4'], now);
    jar.store('http://[::1]:8080/a', ['ip=6'], now);
    expect([jar.header('http://127.0.0.1:9/', now), jar.header('http://[::1]/', now), jar.header('http://127.0.0.2/', now)]).toEqual(['ip=4', 'ip=6', null]);
  });

  it.each([
    ['co.uk', 'http://evil.co.uk/', 'http://bank.co.uk/'],
    ['.co.uk', 'http://evil.co.uk/', 'http://bank.co.uk/'],
    ['com', 'http://evil.com/', 'http://bank.com/'],
    ['github.io', 'http://evil.github.io/', 'http://victim.github.io/'],
    ['s3.amazonaws.com', 'http://evil.s3.amazonaws.com/', 'http://victim.s3.amazonaws.com/'],
  ])('refuses a supercookie for the public suffix %s (set by %s, never sent to %s)', (domain, from, to) => {
    const jar = new CookieJar();
    jar.store(from, [`super=1; Domain=${domain}; Path=/`, 'own=1; Path=/'], now);
    expect(jar.header(to, now)).toBeNull();
    expect(jar.header(from, now)).toBe('own=1');
  });

  it('takes a Domain that is the registrable domain under a public suffix (evil.co.uk for its subdomains)', () => {
    const jar = new CookieJar();
    jar.store('http://www.evil.co.uk/', ['wide=1; Domain=evil.co.uk'], now);
    expect([jar.header('http://mail.evil.co.uk/', now), jar.header('http://bank.co.uk/', now)]).toEqual(['wide=1', null]);
  });

  it('takes Secure cookies only from https (as browsers do)', () => {
    const jar = new CookieJar();
    jar.store('http://a.example/', ['sec=1; Secure'], now);
    expect(jar.header('https://a.example/', now)).toBeNull();
  });

  it('keeps cookies at most 15 minutes, honours Max-Age, Expires and deletion', () => {
    const jar = new CookieJar();
    jar.store('http://a.example/', ['long=1; Max-Age=86400', 'short=2; Max-Age=10', 'gone=3', `dated=4; Expires=${new Date(now + 60_000).toUTCString()}`], now);
    expect(jar.header('http://a.example/', now + 11_000)).toBe('long=1; gone=3; dated=4');
    jar.store('http://a.example/', ['gone=; Max-Age=0'], now + 12_000);
    expect(jar.header('http://a.example/', now + 12_000)).toBe('long=1; dated=4');
    expect(jar.header('http://a.example/', now + 61_000)).toBe('long=1');
    expect(jar.header('http://a.example/', now + COOKIE_KEEP_MS + 1)).toBeNull();
    expect(jar.expired(now + COOKIE_KEEP_MS + 1)).toBe(true);
  });

  it('holds at most its bound of cookies, dropping the oldest', () => {
    const jar = new CookieJar(3);
    jar.store('http://a.example/', ['c1=1', 'c2=2', 'c3=3'], now);
    jar.store('http://a.example/', ['c4=4'], now + 1);
    expect(jar.header('http://a.example/', now + 2)).toBe('c2=2; c3=3; c4=4');
  });
});

describe('CookieJars', () => {
  const now = Date.UTC(2026, 0, 1);

  it('keeps one jar per key and exit', () => {
    const jars = new CookieJars();
    jars.jar('k1', 'e1', now).store('http://a.example/', ['x=1'], now);
    expect(jars.jar('k1', 'e1', now).header('http://a.example/', now)).toBe('x=1');
    expect(jars.jar('k1', 'e2', now).header('http://a.example/', now)).toBeNull();
    expect(jars.jar('k2', 'e1', now).header('http://a.example/', now)).toBeNull();
  });
});
