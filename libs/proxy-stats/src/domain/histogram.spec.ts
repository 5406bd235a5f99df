import { addSample, binOf, fromPairs, Histogram, lowOf, MAX_SAMPLE, mergeInto, quantile, toPairs, valueOf } from './histogram';

describe('usage histograms', () => {
  it('keeps values below 32 exact', () => {
    for (let v = 0; v < 32; v++) {
      expect(binOf(v)).toBe(v);
      expect(valueOf(binOf(v))).toBe(v);
    }
  });

  it('bins are contiguous, ascending, and hold their values within 3.2%', () => {
    let prev = -1;
    for (let v = 0; v < 200_000; v += v < 300 ? 1 : 97) {
      const b = binOf(v);
      expect(b).toBeGreaterThanOrEqual(prev);
      prev = b;
      expect(lowOf(b)).toBeLessThanOrEqual(v);
      expect(lowOf(b + 1)).toBeGreaterThan(v);
      expect(Math.abs(valueOf(b) - v) / Math.max(1, v)).toBeLessThanOrEqual(0.032);
    }
    for (const v of [32, 64, 1024, 2 ** 20, 2 ** 31, 2 ** 31 + 2 ** 27, 2 ** 33]) {
      expect(lowOf(binOf(v))).toBe(v);
      expect(lowOf(binOf(v - 1) + 1)).toBe(v);
    }
  });

  it('bins values of 2^31 and above (the floating-point path) like the others', () => {
    for (const v of [2 ** 31 - 1, 2 ** 31, 2 ** 31 + 5, 3 * 2 ** 30, 2 ** 32 + 12345, 2 ** 39 + 2 ** 38]) {
      const b = binOf(v);
      expect(lowOf(b)).toBeLessThanOrEqual(v);
      expect(lowOf(b + 1)).toBeGreaterThan(v);
    }
    expect(binOf(2 ** 31)).toBe(binOf(2 ** 31 - 1) + 1);
  });

  it('rounds, clamps negatives and caps huge values', () => {
    expect(binOf(2.4)).toBe(2);
    expect(binOf(2.6)).toBe(3);
    expect(binOf(-5)).toBe(0);
    expect(binOf(Number.NaN)).toBe(0);
    expect(binOf(MAX_SAMPLE * 10)).toBe(binOf(MAX_SAMPLE));
    expect(binOf(MAX_SAMPLE)).toBeLessThan(700);
  });

  it('takes the 80th percentile by nearest rank', () => {
    const h: Histogram = new Map();
    for (let v = 1; v <= 10; v++) addSample(h, v);
    expect(quantile(h, 0.8)).toBe(8);
    expect(quantile(new Map(), 0.8)).toBe(0);
    const one: Histogram = new Map();
    addSample(one, 5, 3);
    expect(quantile(one, 0.8)).toBe(5);
    const skew: Histogram = new Map();
    addSample(skew, 1, 4);
    addSample(skew, 2000, 1);
    expect(quantile(skew, 0.8)).toBe(1);
    addSample(skew, 2000, 1);
    expect(Math.abs(quantile(skew, 0.8) - 2000)).toBeLessThanOrEqual(2000 * 0.032);
  });

  it('merging partial histograms gives the histogram of all samples, in any order', () => {
    const samples = Array.from({ length: 500 }, (_, i) => (i * 7919) % 30_000);
    const whole: Histogram = new Map();
    for (const s of samples) addSample(whole, s);
    const parts: Histogram[] = [new Map(), new Map(), new Map()];
    samples.forEach((s, i) => addSample(parts[i % 3], s));
    const a: Histogram = new Map();
    for (const p of parts) mergeInto(a, toPairs(p));
    const b: Histogram = new Map();
    for (const p of [...parts].reverse()) mergeInto(b, p);
    expect(toPairs(a)).toEqual(toPairs(whole));
    expect(toPairs(b)).toEqual(toPairs(whole));
    expect(quantile(a, 0.8)).toBe(quantile(whole, 0.8));
  });

  it('pairs round-trip, ascending, without empty bins', () => {
    const h: Histogram = new Map([[40, 2], [3, 1], [7, 0]]);
    expect(toPairs(h)).toEqual([[3, 1], [40, 2]]);
    expect(toPairs(fromPairs(toPairs(h)))).toEqual([[3, 1], [40, 2]]);
    expect(toPairs(fromPairs(undefined))).toEqual([]);
  });
});
