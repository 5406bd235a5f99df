import { expired, LastUses } from './last-uses';

describe('expired', () => {
  it('is true only once the session was idle for longer than idleMs', () => {
    expect(expired(1000, 500, 1500)).toBe(false);
    expect(expired(1000, 500, 1501)).toBe(true);
    expect(expired(1000, 1_800_000, 1000 + 30 * 60 * 1000)).toBe(false);
    expect(expired(1000, 1_800_000, 1001 + 30 * 60 * 1000)).toBe(true);
  });
});

describe('LastUses', () => {
  it('keeps the newest use of each session, and hands the unsent ones out once per user', () => {
    const u = new LastUses();
    u.used('a', '11', 100);
    u.used('a', '11', 90);
    u.used('a', '12', 50);
    u.used('b', '13', 70);
    expect(u.of('a', '11')).toBe(100);
    expect(u.takeUser('a')).toEqual({ '11': 100, '12': 50 });
    expect(u.takeUser('a')).toBeNull();
    expect(u.of('a', '11')).toBe(100);
    u.used('a', '12', 60);
    expect([...u.takeAll()]).toEqual([['b', { '13': 70 }], ['a', { '12': 60 }]]);
    expect(u.takeAll().size).toBe(0);
  });

  it('sends restored uses again, forgets deleted sessions, and prunes old sent uses only', () => {
    const u = new LastUses();
    u.used('a', '11', 100);
    const taken = u.takeUser('a')!;
    u.restore('a', taken);
    expect(u.takeUser('a')).toEqual({ '11': 100 });
    u.used('a', '12', 10);
    u.used('a', '13', 10);
    u.takeUser('a');
    u.used('a', '13', 20);
    u.prune(50);
    expect([u.of('a', '11'), u.of('a', '12'), u.of('a', '13')]).toEqual([100, 0, 20]);
    u.forget('a', '13');
    expect([u.of('a', '13'), u.takeUser('a')]).toEqual([0, null]);
  });
});
