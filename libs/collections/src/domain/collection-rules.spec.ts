import { expiredBefore, isLive, lastVersionToDrop } from './collection-rules';

describe('collection rules', () => {
  it('expires records of cached types only, expiryMs after their _ts', () => {
    const month = 2_592_000_000;
    for (const type of ['s', 'vs'] as const) expect(isLive(type, 0, 10 * month, month)).toBe(true);
    for (const type of ['cs', 'vcs'] as const) {
      expect(isLive(type, 1000, 1000 + month - 1, month)).toBe(true);
      expect(isLive(type, 1000, 1000 + month, month)).toBe(false);
    }
    expect(expiredBefore(5000, 2000)).toBe(3000);
  });

  it('keeps the newest `keep` versions', () => {
    expect(lastVersionToDrop(0, 3)).toBeLessThan(0);
    expect(lastVersionToDrop(2, 3)).toBeLessThan(0);
    expect(lastVersionToDrop(3, 3)).toBe(0);
    expect(lastVersionToDrop(9, 3)).toBe(6);
    expect(lastVersionToDrop(4, 1)).toBe(3);
  });
});
