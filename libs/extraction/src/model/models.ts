import { LogisticModel } from './logistic';
import { FITTED_WEIGHTS } from './weights';

/** The fitted models the engine applies; the shipped ones are in weights.ts (see docs/extraction-model.md). */
export interface ExtractionModels {
  /** P(the page is one article) over articlePageFeatures. */
  articlePage: LogisticModel;
  /** P(the page is one product's) over productPageFeatures. */
  productPage: LogisticModel;
  /** P(this candidate is the page's headline) over headlineCandidates' features. */
  headline: LogisticModel;
  /** P(this reading is the page's authors) over authorCandidates' features; none above 0.5: no author. */
  author: LogisticModel;
}

export const SHIPPED_MODELS: ExtractionModels = FITTED_WEIGHTS;
