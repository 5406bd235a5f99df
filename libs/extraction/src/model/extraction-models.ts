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
}

