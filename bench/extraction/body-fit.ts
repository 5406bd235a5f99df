/**
 * The body model's training (issue 19): each page's body candidates (the rules' choice first,
 * libs/extraction/src/article/body/body-candidates.ts) scored against the page's annotated
 * body with the benchmark's metric; a logistic regression learns which candidates are (near)
 * the best, and a margin by which an alternative must beat the rules' choice is set for the
 * best mean F1 on the training pages (the widest margin within one page's worth of it), among
 * the margins that lower no article-benchmark page's body on the whole: its annotation is tight, and a wider container that helps WCXB's "main
 * content" hurts it (extraction-learn's body-line model lowered its cross-validated F1 from
 * 0.980 to 0.966; an unguarded margin here to 0.975).
 */
import type { BodyChoiceModel, FeatureValues } from '@crawlhub/extraction';
import { predictProbability } from '@crawlhub/extraction';
import { scorePage } from './article-body-score';
import type { CorpusPage, PageRun } from './cross-validation';
import { Example, fitLogistic } from './logistic-fit';

export interface BodyTrainingPage {
  candidates: { features: FeatureValues; f1: number }[];
  /** A page of the article benchmark, whose bodies the choice must not lower. */
  guarded: boolean;
}

/** A candidate within this much F1 of the page's best one is a right answer. */
const NEAR_BEST = 0.02;
const MARGINS = Array.from({ length: 21 }, (_, i) => i / 40); // 0 to 0.5 by 0.025
/** A margin no probability difference reaches: the rules' choice always. */
const NEVER = 1;

export function pageF1(truth: string, text: string): number {
  const { precision = 0, recall = 0 } = scorePage(truth, text);
  return precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
}

/** The page's candidates and their F1 (no candidates when the page has no annotated body). */
export function bodyTrainingPage(page: CorpusPage, run: PageRun): BodyTrainingPage {
  const truth: string = page.truth.articleBody ?? '';
  const guarded = page.dataset === 'article-extraction-dev';
  if (!truth.trim()) return { candidates: [], guarded };
  return { candidates: (run.articleEvidence.bodyCandidates ?? []).map((c) => ({ features: c.features, f1: pageF1(truth, c.text) })), guarded };
}

/** Mean F1 of the candidates the model chooses with this margin; -Infinity when it lowers the guarded pages' total. */
function meanChosenF1(pages: BodyTrainingPage[], model: BodyChoiceModel['model'], margin: number): number {
  let total = 0;
  let guardedChange = 0;
  for (const page of pages) {
    const scores = page.candidates.map((c) => predictProbability(model, c.features));
    let chosen = 0;
    for (let i = 1; i < scores.length; i++) if (scores[i] > scores[chosen] + (chosen === 0 ? margin : 0)) chosen = i;
    total += page.candidates[chosen].f1;
    if (page.guarded) guardedChange += page.candidates[chosen].f1 - page.candidates[0].f1;
  }
  return guardedChange < -1e-9 ? -Infinity : total / Math.max(1, pages.length);
}

export function fitBodyChoice(pages: BodyTrainingPage[]): BodyChoiceModel {
  const scored = pages.filter((p) => p.candidates.length > 0);
  const examples: Example[] = [];
  for (const page of scored) {
    const f1s = page.candidates.map((c) => c.f1);
    const best = Math.max(...f1s);
    // a page whose candidates all score alike teaches nothing about which to choose
    if (best - Math.min(...f1s) <= NEAR_BEST) continue;
    for (const c of page.candidates) examples.push({ features: c.features, label: c.f1 >= best - NEAR_BEST });
  }
  const model = fitLogistic(examples);
  // The widest margin within one page's worth of the best mean F1: a narrower one that gains less
  // than that has chosen by noise (a held-out page then flips on a 0.025 step: indiapost, 0.996 → 0.550).
  const f1s = new Map([NEVER, ...MARGINS].map((margin) => [margin, meanChosenF1(scored, model, margin)]));
  const bestF1 = Math.max(...f1s.values());
  const nearBest = [...f1s].filter(([, f1]) => f1 >= bestF1 - 1 / Math.max(1, scored.length));
  return { model, margin: Math.max(...nearBest.map(([margin]) => margin)) };
}
