import type { ExtractionModels } from './extraction-models';
import { FITTED_WEIGHTS } from './weights';

export type { ExtractionModels };

export const SHIPPED_MODELS: ExtractionModels = FITTED_WEIGHTS;
