import type { BodyChoiceModel, ExtractionModels } from './extraction-models';
import { FITTED_WEIGHTS } from './weights';

export type { BodyChoiceModel, ExtractionModels };

export const SHIPPED_MODELS: ExtractionModels = FITTED_WEIGHTS;
