import type { FeatureValues, LogisticModel } from '@crawlhub/extraction';

export interface Example {
  features: FeatureValues;
  label: boolean;
}

const ITERATIONS = 400;
const LEARNING_RATE = 0.5;
/** L2 penalty per weight: small data, so the weights are kept modest (and readable). */
const L2 = 0.01;

/**
 * Fits a logistic regression by full-batch gradient descent on standardised features (a
 * few thousand rows and some twenty features: milliseconds). `balanced` weighs the classes
 * equally (a ranking: which candidate, which page type); without it the probability stays
 * calibrated, for a model whose 0.5 decides whether to answer at all.
 */
export function fitLogistic(examples: Example[], featureNames?: string[], balanced = true): LogisticModel {
  const features = featureNames ?? [...new Set(examples.flatMap((e) => Object.keys(e.features)))].sort();
  const columns = features.map((f) => examples.map((e) => e.features[f] ?? 0));
  const mean = columns.map((c) => c.reduce((a, b) => a + b, 0) / Math.max(1, c.length));
  const scale = columns.map((c, i) => Math.sqrt(c.reduce((a, b) => a + (b - mean[i]) ** 2, 0) / Math.max(1, c.length)) || 1);
  const x = examples.map((_, row) => features.map((_, i) => (columns[i][row] - mean[i]) / scale[i]));
  const y = examples.map((e) => (e.label ? 1 : 0));
  const positives = y.filter(Boolean).length;
  const [positiveWeight, negativeWeight] = !balanced ? [1, 1] : [examples.length / (2 * Math.max(1, positives)), examples.length / (2 * Math.max(1, examples.length - positives))];
  const weights = features.map(() => 0);
  let bias = 0;
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const gradient = features.map(() => 0);
    let biasGradient = 0;
    for (let row = 0; row < x.length; row++) {
      let z = bias;
      for (let i = 0; i < weights.length; i++) z += weights[i] * x[row][i];
      const error = (1 / (1 + Math.exp(-z)) - y[row]) * (y[row] ? positiveWeight : negativeWeight);
      for (let i = 0; i < weights.length; i++) gradient[i] += error * x[row][i];
      biasGradient += error;
    }
    for (let i = 0; i < weights.length; i++) weights[i] -= LEARNING_RATE * (gradient[i] / x.length + L2 * weights[i]);
    bias -= (LEARNING_RATE * biasGradient) / x.length;
  }
  const round = (v: number) => Math.round(v * 1e4) / 1e4;
  return { features, mean: mean.map(round), scale: scale.map(round), weights: weights.map(round), bias: round(bias) };
}

/** One page's best candidate under a model: its probability, whether it is right, whether the page has an answer at all. */
export interface PageChoice {
  score: number;
  right: boolean;
  hasTruth: boolean;
}

/**
 * The probability above which a model's best candidate is answered, chosen for the best F1 on
 * these pages (precision over the pages answered, recall over the pages with a truth): 0.5
 * leaves recall on the table when the model is right more often than it is sure.
 */
export function answerThreshold(pages: PageChoice[]): number {
  const withTruth = pages.filter((p) => p.hasTruth).length;
  let best = { threshold: 0.5, f1: -1 };
  for (let step = 95; step >= 5; step--) {
    const threshold = step / 100;
    const answered = pages.filter((p) => p.score > threshold);
    const right = answered.filter((p) => p.right).length;
    const precision = answered.length ? right / answered.length : 0;
    const recall = withTruth ? right / withTruth : 0;
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    if (f1 > best.f1) best = { threshold, f1 };
  }
  return best.threshold;
}
