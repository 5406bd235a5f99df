import { availabilityPrediction, countPage, emptyCounts, score } from '../../bench/extraction/product-score';

describe('product benchmark metric', () => {
  it('counts a right value as tp, a wrong one as fp + fn, a missing one as fn, and nothing when the page has no value', () => {
    const counts = emptyCounts();
    countPage(counts, 'A1', ['A1', 'A-1']); // tp
    countPage(counts, 'B2', ['A1']); // fp + fn
    countPage(counts, undefined, ['C3']); // fn
    countPage(counts, 'D4', undefined); // fp only
    countPage(counts, undefined, undefined); // nothing
    expect(counts).toEqual({ tp: 1, fp: 2, fn: 2 });
    const s = score(counts);
    expect(s.precision).toBeCloseTo(1 / 3);
    expect(s.recall).toBeCloseTo(1 / 3);
    expect(s.f1).toBeCloseTo(1 / 3);
  });

  it('compares prices as decimal numbers, not as text', () => {
    const counts = emptyCounts();
    countPage(counts, '229.990', ['229.99 '], 'decimal');
    countPage(counts, '49', ['49.00'], 'decimal');
    countPage(counts, '1299', ['12.99'], 'decimal');
    expect(counts).toEqual({ tp: 2, fp: 1, fn: 1 });
    expect(score(counts).f1).toBeCloseTo(2 / 3);
  });

  it('takes an empty availability prediction as InStock', () => {
    const counts = emptyCounts();
    countPage(counts, availabilityPrediction(undefined), ['InStock']);
    countPage(counts, availabilityPrediction(undefined), ['OutOfStock']);
    expect(counts).toEqual({ tp: 1, fp: 1, fn: 1 });
  });
});
