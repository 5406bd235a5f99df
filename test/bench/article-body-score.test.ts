import { scoreCorpus, scorePage, shingles, tokenize } from '../../bench/extraction/article-body-score';

describe('article body metric (benchmark README)', () => {
  it('tokenizes on Unicode word characters, case kept, punctuation dropped', () => {
    expect(tokenize('Héllo, wörld! It’s 2019_x.')).toEqual(['Héllo', 'wörld', 'It', 's', '2019_x']);
  });

  it('counts overlapping 4-token shingles as a multiset; a short text gives one shingle', () => {
    expect([...shingles(tokenize('a b c d a b c d'))]).toEqual([
      ['a b c d', 2],
      ['b c d a', 1],
      ['c d a b', 1],
      ['d a b c', 1],
    ]);
    expect([...shingles(['a', 'b'])]).toEqual([['a b', 1]]);
    expect(shingles([]).size).toBe(0);
  });

  it('scores a page: 6 true shingles, 3 predicted of which 2 right', () => {
    const page = scorePage('a b c d e f g h i', 'c d e f g x');
    // predicted shingles: cdef, defg (true), efgx (false) → tp 2, fp 1, fn 4 → total 7
    expect(page.tp).toBeCloseTo(2 / 7);
    expect(page.fp).toBeCloseTo(1 / 7);
    expect(page.fn).toBeCloseTo(4 / 7);
    expect(page.precision).toBeCloseTo(2 / 3);
    expect(page.recall).toBeCloseTo(2 / 6);
    expect(page.exact).toBe(false);
  });

  it('averages precision over predicted pages and recall over annotated pages; accuracy is exact token lists', () => {
    const perfect = scorePage('One, two three four five.', 'One two three four five');
    const empty = scorePage('a b c d e', '');
    expect(perfect).toMatchObject({ precision: 1, recall: 1, exact: true });
    expect(empty.precision).toBeUndefined();
    expect(empty.recall).toBe(0);
    const corpus = scoreCorpus([perfect, empty]);
    expect(corpus.precision).toBe(1);
    expect(corpus.recall).toBe(0.5);
    expect(corpus.f1).toBeCloseTo(2 / 3);
    expect(corpus.accuracy).toBe(0.5);
  });
});
