/**
 * A logistic regression over named features: what the engine uses where a choice weighs
 * signals (is this page an article, a product; which headline candidate is the page's).
 * Weights are fitted offline by bench/extraction/train-models.ts (site-grouped
 * cross-validation, report in docs/extraction-model.md) and shipped in weights.ts; applying
 * one is a dot product, no dependency, no network.
 */
export interface LogisticModel {
  /** Feature names, in the order of `weights`. */
  features: string[];
  /** Standardisation applied before the weights: (x - mean) / scale. */
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  /**
   * For a model whose answer may be none (author, date): the probability a candidate must pass
   * to be answered, fitted for the best F1 on the training pages (absent: 0.5).
   */
  threshold?: number;
}

export type FeatureValues = Record<string, number>;

/** The model's probability for these feature values (a missing feature counts as 0). */
export function predictProbability(model: LogisticModel, values: FeatureValues): number {
  let z = model.bias;
  for (let i = 0; i < model.features.length; i++) z += model.weights[i] * (((values[model.features[i]] ?? 0) - model.mean[i]) / model.scale[i]);
  return 1 / (1 + Math.exp(-z));
}
