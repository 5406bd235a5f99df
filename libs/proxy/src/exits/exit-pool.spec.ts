import { Exit } from './exit';
import { ExitPool } from './exit-pool';

describe('ExitPool', () => {
  const trust = { rejectUnauthorized: true };
  let now = 1_000;
  const noThrottle = { spacingMs: 0, softLimitMs: 0, hardLimitMs: 1_000 };
  const make = (throttle = noThrottle, addresses = ['127.0.0.2', '127.0.0.3', '127.0.0.4']) => {
    const exits = addresses.map((a) => new Exit(a, { kind: 'local', localAddress: a }, trust));
    return new ExitPool(exits, { banCooldownMs: 100, exitCooldownMs: 50, throttle }, () => now);
  };
  const id = (p: ReturnType<ExitPool['pick']>) => ('exit' in p ? p.exit.id : p.none);

  it('rotates round-robin', () => {
    const pool = make();
    expect([1, 2, 3, 4].map(() => id(pool.pick('a.test')))).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.2']);
    pool.close();
  });

  it('prefers exits neither tried by the request nor cooling down after a ban of the domain, then cooling ones, then tried ones', () => {
    const pool = make();
    const first = pool.pick('a.test');
    if (!('exit' in first)) throw new Error('no exit');
    pool.banned(first.exit, 'a.test');
    const tried = new Set([first.exit]);
    const second = pool.pick('a.test', tried);
    expect(id(second)).toBe('127.0.0.3');
    if ('exit' in second) {
      tried.add(second.exit);
      pool.banned(second.exit, 'a.test');
    }
    now += 1;
    const third = pool.pick('a.test', tried);
    expect(id(third)).toBe('127.0.0.4');
    if ('exit' in third) {
      tried.add(third.exit);
      pool.banned(third.exit, 'a.test');
    }
    // Every exit tried and banned: the retry goes to the one banned the longest ago, and so round.
    expect(id(pool.pick('a.test', tried))).toBe('127.0.0.2');
    pool.banned(pool.exits[0], 'a.test');
    expect(id(pool.pick('a.test', tried))).toBe('127.0.0.3');
    // A new request prefers the exits that are not cooling down; other domains are not concerned.
    pool.banned(pool.exits[1], 'b.test');
    expect(id(pool.pick('b.test'))).not.toBe('127.0.0.3');
    now += 101;
    expect(id(pool.pick('a.test'))).toMatch(/^127/);
    pool.close();
  });

  it('never leaves a domain without an exit: a lone exit cooling down after a ban is still picked, by new requests and retries alike', () => {
    const pool = make(noThrottle, ['127.0.0.2']);
    const only = pool.exits[0];
    pool.banned(only, 'a.test');
    expect(id(pool.pick('a.test'))).toBe('127.0.0.2');
    expect(id(pool.pick('a.test', new Set([only])))).toBe('127.0.0.2');
    // Two exits, both cooling: the one whose ban is older first.
    const two = make(noThrottle, ['127.0.0.2', '127.0.0.3']);
    two.banned(two.exits[1], 'a.test');
    now += 1;
    two.banned(two.exits[0], 'a.test');
    expect(id(two.pick('a.test'))).toBe('127.0.0.3');
    now += 101;
    pool.close();
    two.close();
  });

  it('gives the least recently used healthy exit for no domain in particular', () => {
    const pool = make();
    expect(pool.leastRecentlyUsed()?.id).toBe('127.0.0.2');
    pool.failed(pool.exits[1]);
    expect(pool.leastRecentlyUsed()?.id).toBe('127.0.0.4');
    expect(id(pool.pick('a.test'))).toBe('127.0.0.2');
    for (const e of pool.exits) pool.failed(e);
    expect(pool.leastRecentlyUsed()).toBeNull();
    now += 51;
    pool.close();
  });

  it('picks within a region when asked, and knows which regions exist', () => {
    const exits = [['127.0.0.2', 'us'], ['127.0.0.3', 'de'], ['127.0.0.4', 'us']].map(([a, region]) => new Exit(a, { kind: 'local', localAddress: a, region }, trust));
    const pool = new ExitPool(exits, { banCooldownMs: 100, exitCooldownMs: 50, throttle: noThrottle }, () => now);
    expect([1, 2, 3].map(() => id(pool.pick('a.test', new Set(), 'us')))).toEqual(['127.0.0.2', '127.0.0.4', '127.0.0.2']);
    expect(id(pool.pick('a.test', new Set(), 'de'))).toBe('127.0.0.3');
    pool.failed(exits[1]);
    expect(id(pool.pick('a.test', new Set(), 'de'))).toBe('noslaves');
    expect([pool.hasRegion('us'), pool.hasRegion('fr')]).toEqual([true, false]);
    now += 51;
    pool.close();
  });

  it('answers noslaves when every exit failed', () => {
    const pool = make();
    for (const e of pool.exits) pool.failed(e);
    expect(pool.pick('a.test')).toEqual({ none: 'noslaves' });
    now += 51;
    expect(id(pool.pick('a.test'))).not.toBe('noslaves');
    pool.close();
  });

  describe('throttling', () => {
    const throttle = { spacingMs: 10, softLimitMs: 25, hardLimitMs: 40 };
    const slot = (p: ReturnType<ExitPool['pick']>) => ('exit' in p ? [p.exit.id, p.waitMs] : [p.none, 'retryAfterMs' in p ? p.retryAfterMs : null]);

    it('spaces the requests to one domain per exit, the wait growing with each request, up to the hard limit', () => {
      const pool = make(throttle, ['127.0.0.2']);
      expect([1, 2, 3, 4, 5].map(() => slot(pool.pick('a.test')))).toEqual([
        ['127.0.0.2', 0],
        ['127.0.0.2', 10],
        ['127.0.0.2', 20],
        ['127.0.0.2', 30],
        ['throttled', 40],
      ]);
      // Another domain has its own slots; the refused request took none.
      expect(slot(pool.pick('b.test'))).toEqual(['127.0.0.2', 0]);
      expect(pool.nextWaitMs('a.test')).toBe(40);
      now += 35;
      expect(slot(pool.pick('a.test'))).toEqual(['127.0.0.2', 5]);
      pool.close();
    });

    it('refuses at once a request whose wait would pass the longest the client accepts (X-Proxy-Max-Wait), taking no slot', () => {
      const pool = make(throttle, ['127.0.0.2']);
      expect(slot(pool.pick('a.test', new Set(), null, 5))).toEqual(['127.0.0.2', 0]);
      expect(slot(pool.pick('a.test', new Set(), null, 5))).toEqual(['throttled', 10]);
      expect(slot(pool.reserve(pool.exits[0], 'a.test', 9))).toEqual(['throttled', 10]);
      expect(slot(pool.pick('a.test', new Set(), null, 10))).toEqual(['127.0.0.2', 10]);
      pool.close();
    });

    it('picks the exit whose next slot for the domain comes first', () => {
      const pool = make(throttle);
      expect([1, 2, 3, 4, 5, 6].map(() => slot(pool.pick('a.test')))).toEqual([
        ['127.0.0.2', 0],
        ['127.0.0.3', 0],
        ['127.0.0.4', 0],
        ['127.0.0.2', 10],
        ['127.0.0.3', 10],
        ['127.0.0.4', 10],
      ]);
      pool.close();
    });

    it('reserves a pinned exit\'s slot and takes back the last slot of a request that gave up', () => {
      const pool = make(throttle, ['127.0.0.2', '127.0.0.3']);
      const pinned = pool.exits[1];
      expect(slot(pool.reserve(pinned, 'a.test'))).toEqual(['127.0.0.3', 0]);
      const second = pool.reserve(pinned, 'a.test');
      expect(slot(second)).toEqual(['127.0.0.3', 10]);
      expect(pool.nextWaitMs('a.test', pinned)).toBe(20);
      if ('exit' in second) pool.giveBack(second, 'a.test');
      expect(pool.nextWaitMs('a.test', pinned)).toBe(10);
      // The unpinned choice goes to the exit that is free now.
      expect(slot(pool.pick('a.test'))).toEqual(['127.0.0.2', 0]);
      pool.close();
    });

    it('takes no slots when spacing is 0', () => {
      const pool = make();
      for (let i = 0; i < 10; i++) expect(slot(pool.pick('a.test'))[1]).toBe(0);
      expect(pool.exits.every((e) => e.nextSlot.size === 0)).toBe(true);
      pool.close();
    });
  });
});
