/**
 * The article-body metric of the article extraction benchmark, as its README defines it:
 * word tokens → overlapping 4-token shingles (a multiset) → per-page tp/fp/fn, normalised
 * so every page weighs the same; precision averaged over pages with a prediction, recall
 * over pages with a truth, F1 their harmonic mean; accuracy = exact token-list matches.
 */

const SHINGLE_SIZE = 4;

export function tokenize(text: string): string[] {
  // Python's Unicode `\w` (the benchmark's tokenizer): letters, numbers and "_", not combining marks.
  return text.match(/[\p{L}\p{N}_]+/gu) ?? [];
}

export function shingles(tokens: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  const windows = tokens.length === 0 ? 0 : Math.max(1, tokens.length - SHINGLE_SIZE + 1);
  for (let i = 0; i < windows; i++) {
    const key = tokens.slice(i, i + SHINGLE_SIZE).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export interface PageScore {
  tp: number;
  fp: number;
  fn: number;
  precision?: number;
  recall?: number;
  exact: boolean;
}

export function scorePage(truth: string, prediction: string): PageScore {
  const truthTokens = tokenize(truth);
  const predictedTokens = tokenize(prediction);
  const expected = shingles(truthTokens);
  const predicted = shingles(predictedTokens);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [key, count] of predicted) {
    const wanted = expected.get(key) ?? 0;
    tp += Math.min(count, wanted);
    fp += Math.max(count - wanted, 0);
  }
  for (const [key, count] of expected) fn += Math.max(count - (predicted.get(key) ?? 0), 0);
  const total = tp + fp + fn;
  const [ntp, nfp, nfn] = total ? [tp / total, fp / total, fn / total] : [0, 0, 0];
  const perfect = fp === 0 && fn === 0;
  return {
    tp: ntp,
    fp: nfp,
    fn: nfn,
    precision: predictedTokens.length ? (perfect ? 1 : ntp / (ntp + nfp)) : undefined,
    recall: truthTokens.length ? (perfect ? 1 : ntp / (ntp + nfn)) : undefined,
    exact: truthTokens.join(' ') === predictedTokens.join(' '),
  };
}

export interface CorpusScore {
  f1: number;
  precision: number;
  recall: number;
  accuracy: number;
}

export function scoreCorpus(pages: PageScore[]): CorpusScore {
  const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
  const precision = mean(pages.flatMap((p) => (p.precision === undefined ? [] : [p.precision])));
  const recall = mean(pages.flatMap((p) => (p.recall === undefined ? [] : [p.recall])));
  return {
    precision,
    recall,
    f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    accuracy: mean(pages.map((p) => (p.exact ? 1 : 0))),
  };
}
