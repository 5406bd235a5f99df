/**
 * The article fields' metric of issue 19 (headline, author, datePublished): a page's answer
 * is right when its lowercase word tokens equal the truth's (authors without a leading "by";
 * dates compared as YYYY-MM-DD). Precision over the pages where an answer is given, recall
 * over the pages whose truth has a value, F1 their harmonic mean.
 */
import { tokenize } from './article-body-score';

export type ArticleField = 'headline' | 'author' | 'date';

export interface FieldCounts {
  answered: number;
  withTruth: number;
  right: number;
}

export function emptyFieldCounts(): FieldCounts {
  return { answered: 0, withTruth: 0, right: 0 };
}

export function normalisedField(field: ArticleField, value: string | null | undefined): string {
  if (!value) return '';
  if (field === 'date') return /^\d{4}-\d{2}-\d{2}/.exec(value.trim())?.[0] ?? tokenize(value.toLowerCase()).join(' ');
  const tokens = tokenize(value.toLowerCase());
  if (field === 'author' && tokens[0] === 'by') tokens.shift();
  return tokens.join(' ');
}

export function countField(counts: FieldCounts, field: ArticleField, predicted: string | null | undefined, truth: string | null | undefined): void {
  const [ours, wanted] = [normalisedField(field, predicted), normalisedField(field, truth)];
  if (ours) counts.answered++;
  if (wanted) counts.withTruth++;
  if (ours && ours === wanted) counts.right++;
}

export function fieldF1(counts: FieldCounts): { precision: number; recall: number; f1: number } {
  const precision = counts.answered ? counts.right / counts.answered : 0;
  const recall = counts.withTruth ? counts.right / counts.withTruth : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** ROC AUC of scores for positives against negatives (the chance a positive outranks a negative; ties half). */
export function rocAuc(positives: number[], negatives: number[]): number {
  if (!positives.length || !negatives.length) return NaN;
  const all = [...positives.map((s) => ({ s, positive: true })), ...negatives.map((s) => ({ s, positive: false }))].sort((a, b) => a.s - b.s);
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j].s === all[i].s) j++;
    const meanRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k].positive) rankSum += meanRank;
    i = j;
  }
  return (rankSum - (positives.length * (positives.length + 1)) / 2) / (positives.length * negatives.length);
}
