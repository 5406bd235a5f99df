import { Exit } from './exit';
import { ExitPool } from './exit-pool';

describe('ExitPool', () => {
  const trust = { rejectUnauthorized: true };
  let now = 1_000;
  const make = () => {
    const exits = ['127.0.0.2', '127.0.0.3', '127.0.0.4'].map((a) => new Exit(a, { kind: 'local', localAddress: a }, trust));
    return new ExitPool(exits, { banCooldownMs: 100, exitCooldownMs: 50 }, () => now);
  };
  const id = (p: ReturnType<ExitPool['pick']>) => ('exit' in p ? p.exit.id : p.none);

  it('rotates round-robin', () => {
    const pool = make();
    expect([1, 2, 3, 4].map(() => id(pool.pick('a.test')))).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.2']);
    pool.close();
  });

  it('skips exits banned for the domain, and tried ones; answers banned with a retry delay', () => {
    const pool = make();
    const first = pool.pick('a.test');
    if (!('exit' in first)) throw new Error('no exit');
    pool.banned(first.exit, 'a.test');
    const tried = new Set([first.exit]);
    const second = pool.pick('a.test', tried);
    expect(id(second)).toBe('127.0.0.3');
    if ('exit' in second) tried.add(second.exit);
    const third = pool.pick('a.test', tried);
    if ('exit' in third) tried.add(third.exit);
    expect(pool.pick('a.test', tried)).toEqual({ none: 'banned', retryAfterMs: 100 });
    expect(id(pool.pick('b.test'))).not.toBe('banned');
    now += 101;
    expect(id(pool.pick('a.test'))).toMatch(/^127/);
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
});
