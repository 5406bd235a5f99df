import type { UsageHistogram } from '@crawlhub/contracts';

/**
 * Mergeable summaries of non-negative integer samples (request times in ms, concurrency)
 * on FIXED log-linear bins, so that partial histograms from several proxy processes and
 * flushes add up bin by bin, in any order, to the histogram of all the samples.
 *
 * Values below 32 have a bin each (exact). Above, every power of two is cut into 16
 * bins: a bin's representative value is within 3.2% of any value it holds. Values are
 * rounded to integers and capped at 2^40 (bins 0 to 607).
 */
const EXACT = 32;
const SUB_BITS = 4;
const SUB = 1 << SUB_BITS;
/** floor(log2(EXACT)) */
const FIRST_EXP = 5;
export const MAX_SAMPLE = 2 ** 40;

/** A histogram being built: bin -> count. */
export type Histogram = Map<number, number>;

export function binOf(value: number): number {
  const v = value >= 0 ? (value < MAX_SAMPLE ? Math.round(value) : MAX_SAMPLE) : 0; // NaN -> 0
  if (v < EXACT) return v;
  if (v < 0x80000000) {
    // The hot path (every request): integer bit arithmetic.
    const exp = 31 - Math.clz32(v);
    return EXACT + (exp - FIRST_EXP) * SUB + ((v >>> (exp - SUB_BITS)) & (SUB - 1));
  }
  const e = Math.floor(Math.log2(v));
  // Math.log2 may be off by one near powers of two: correct it.
  const exp = 2 ** e > v ? e - 1 : 2 ** (e + 1) <= v ? e + 1 : e;
  const sub = Math.floor(v / 2 ** (exp - SUB_BITS)) - SUB;
  return EXACT + (exp - FIRST_EXP) * SUB + sub;
}

/** The smallest value of a bin. */
export function lowOf(bin: number): number {
  if (bin < EXACT) return bin;
  const exp = FIRST_EXP + Math.floor((bin - EXACT) / SUB);
  const sub = (bin - EXACT) % SUB;
  return (SUB + sub) * 2 ** (exp - SUB_BITS);
}

/** The value reported for a bin: the middle of its range, rounded down. */
export function valueOf(bin: number): number {
  if (bin < EXACT) return bin;
  const width = lowOf(bin + 1) - lowOf(bin);
  return lowOf(bin) + Math.floor((width - 1) / 2);
}

export function addSample(h: Histogram, value: number, count = 1): void {
  if (count <= 0) return;
  const b = binOf(value);
  h.set(b, (h.get(b) ?? 0) + count);
}

/** Adds `from` into `into` (bins add up). */
export function mergeInto(into: Histogram, from: Histogram | UsageHistogram): void {
  for (const [b, n] of from) if (n > 0) into.set(b, (into.get(b) ?? 0) + n);
}

export function toPairs(h: Histogram): UsageHistogram {
  return [...h.entries()].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
}

export function fromPairs(pairs: UsageHistogram | undefined | null): Histogram {
  const h: Histogram = new Map();
  if (pairs) mergeInto(h, pairs);
  return h;
}

/**
 * The q-quantile (0 < q ≤ 1) by nearest rank: the value of the bin that holds the
 * ceil(q·n)-th smallest sample. 0 for an empty histogram.
 */
export function quantile(h: Histogram, q: number): number {
  let total = 0;
  for (const n of h.values()) total += n;
  if (total === 0) return 0;
  const rank = Math.max(1, Math.ceil(q * total - 1e-9));
  let seen = 0;
  for (const b of [...h.keys()].sort((a, c) => a - c)) {
    seen += h.get(b)!;
    if (seen >= rank) return valueOf(b);
  }
  return 0;
}
