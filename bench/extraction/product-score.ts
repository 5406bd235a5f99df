/**
 * The product extraction benchmark's metric (datasets/product-extraction-dev/README.md):
 * per attribute one predicted value per page; a value in the page's list of acceptable
 * values is a true positive, any other value a false positive (and a false negative when
 * the list is not empty); no prediction is a false negative when the list is not empty.
 * Counts are summed over pages. Prices compare as decimal numbers; an empty availability
 * prediction counts as InStock.
 */
export interface AttributeCounts {
  tp: number;
  fp: number;
  fn: number;
}

export interface AttributeScore extends AttributeCounts {
  precision: number;
  recall: number;
  f1: number;
}

export type ValueComparison = 'text' | 'decimal';

export function emptyCounts(): AttributeCounts {
  return { tp: 0, fp: 0, fn: 0 };
}

/** Adds one page's outcome for one attribute to the counts. */
export function countPage(counts: AttributeCounts, predicted: string | undefined, acceptable: readonly string[] | undefined, comparison: ValueComparison = 'text'): void {
  const truths = acceptable ?? [];
  if (predicted === undefined || predicted.trim() === '') {
    if (truths.length) counts.fn++;
    return;
  }
  if (truths.some((truth) => sameValue(predicted, truth, comparison))) {
    counts.tp++;
    return;
  }
  counts.fp++;
  if (truths.length) counts.fn++;
}

export function score(counts: AttributeCounts): AttributeScore {
  const precision = counts.tp + counts.fp ? counts.tp / (counts.tp + counts.fp) : 0;
  const recall = counts.tp + counts.fn ? counts.tp / (counts.tp + counts.fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { ...counts, precision, recall, f1 };
}

function sameValue(predicted: string, truth: string, comparison: ValueComparison): boolean {
  if (comparison === 'decimal') {
    const [a, b] = [Number(predicted.trim()), Number(truth.trim())];
    return predicted.trim() !== '' && truth.trim() !== '' && Number.isFinite(a) && a === b;
  }
  return predicted.trim() === truth.trim();
}

/** The README's rule for availability: a page without a prediction counts as InStock. */
export function availabilityPrediction(predicted: string | undefined): string {
  return predicted || 'InStock';
}
