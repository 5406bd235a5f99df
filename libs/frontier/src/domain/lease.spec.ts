import { enough, leasable, LeaseCandidate, LeasePicker } from './lease';

const b = (id: string, count: number, leasedUntil = 0): LeaseCandidate => ({ id, count, leasedUntil });

describe('leases', () => {
  it('a batch is leasable when its lease expired (or it never had one)', () => {
    expect(leasable(b('a', 1), 1000)).toBe(true);
    expect(leasable(b('a', 1, 1000), 1000)).toBe(true);
    expect(leasable(b('a', 1, 1001), 1000)).toBe(false);
  });

  it('takes leasable batches in order until mincount requests', () => {
    const picker = new LeasePicker(150, 1000);
    expect(picker.offer([b('1', 100), b('2', 100, 5000), b('3', 30)])).toBe(false);
    expect(picker.offer([b('4', 100), b('5', 100)])).toBe(true);
    expect(picker.ids).toEqual(['1', '3', '4']);
  });

  it('takes at least one batch, even with mincount 0, and none when all are leased', () => {
    const one = new LeasePicker(0, 1000);
    one.offer([b('1', 5), b('2', 5)]);
    expect(one.ids).toEqual(['1']);
    const none = new LeasePicker(100, 1000);
    expect(none.offer([b('1', 5, 2000)])).toBe(false);
    expect(none.ids).toEqual([]);
  });

  it('plain reads stop on the same rule', () => {
    expect(enough(0, 0, 0)).toBe(false);
    expect(enough(1, 0, 0)).toBe(true);
    expect(enough(1, 99, 100)).toBe(false);
    expect(enough(2, 100, 100)).toBe(true);
  });
});
