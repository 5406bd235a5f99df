import type { LogisticModel } from './logistic';

/**
 * The fitted models the engine applies (docs/extraction-model-report.md). The shipped ones
 * are in weights.ts, which the training script writes; this type lives apart from
 * models.ts so that the generated weights and the module that ships them import no cycle.
 */
export interface ExtractionModels {
  /** P(the page is one article) over articlePageFeatures. */
  articlePage: LogisticModel;
  /** P(the page is one product's) over productPageFeatures. */
  productPage: LogisticModel;
  /** P(this candidate is the page's headline) over headlineCandidates' features. */
  headline: LogisticModel;
  /** P(this reading is the page's authors) over authorCandidates' features; none above 0.5: no author. */
  author: LogisticModel;
  /** P(this day is the page's date) over dateCandidates' features; none above 0.5: no date. */
  date: LogisticModel;
  /** Which body candidate is the article body (article/body/body-candidates.ts); absent: the hand-written choice. */
  body?: BodyChoiceModel;
}

/** The fitted body choice: P(this candidate is the body), and by how much an alternative must beat the rules' choice to replace it. */
export interface BodyChoiceModel {
  model: LogisticModel;
  margin: number;
}

