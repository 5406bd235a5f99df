/**
 * Site-grouped cross-validation of the extraction engine (issue 19): every page of the three
 * development sets belongs to its site (host without "www."), every site to one of FOLDS
 * folds (by a hash of its name, so the split is the same every run); the fitted models are
 * trained on the other folds' pages and the fold's pages are extracted with them. What a
 * page scores that way is what the engine would score on a site it has never seen.
 */
import { Article, ExtractionModels, Product, SHIPPED_MODELS, extractArticleWithEvidence, extractProductWithEvidence, modelledArticleFields, modelledProductFields } from '@crawlhub/extraction';
import { predictProbability } from '@crawlhub/extraction';
import type { ArticleModelEvidence, FeatureValues, LogisticModel } from '@crawlhub/extraction';
import { loadDataset } from '../extraction-datasets';
import { Example, PageChoice, answerThreshold, fitLogistic } from './logistic-fit';
import { bodyTrainingPage, fitBodyChoice } from './body-fit';
import { normalisedField } from './field-score';

export const FOLDS = 5;

export type CorpusName = 'article-extraction-dev' | 'product-extraction-dev' | 'wcxb-dev';

export interface CorpusPage {
  dataset: CorpusName;
  id: string;
  url: string;
  html: string;
  site: string;
  fold: number;
  /** article, product, or WCXB's page type. */
  pageType: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  truth: any;
}

export interface PageRun {
  article: Article;
  product: Product;
  articleEvidence: ArticleModelEvidence;
  productFeatures: FeatureValues;
  /** Seconds this page's article extraction took. */
  articleSeconds: number;
}

export function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/** FNV-1a of the site's name, modulo FOLDS. */
export function foldOf(site: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < site.length; i++) hash = Math.imul(hash ^ site.charCodeAt(i), 0x01000193) >>> 0;
  return hash % FOLDS;
}

export function loadCorpus(datasets: readonly CorpusName[] = ['article-extraction-dev', 'product-extraction-dev', 'wcxb-dev']): CorpusPage[] {
  const pages: CorpusPage[] = [];
  for (const dataset of datasets) {
    for (const page of loadDataset<{ url: string; pageType?: string }>(dataset)) {
      const site = siteOf(page.url);
      const pageType = dataset === 'wcxb-dev' ? page.truth.pageType ?? 'unknown' : dataset === 'article-extraction-dev' ? 'article' : 'product';
      pages.push({ dataset, id: page.id, url: page.url, html: page.html, site, fold: foldOf(site), pageType, truth: page.truth });
    }
  }
  return pages;
}

export function runPage(page: CorpusPage, models: ExtractionModels, withBodyCandidates = false): PageRun {
  const started = process.hrtime.bigint();
  const { article, evidence } = extractArticleWithEvidence(page.html, page.url, { articleBodyRaw: false }, models, withBodyCandidates);
  const articleSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const { product, pageFeatures } = extractProductWithEvidence(page.html, page.url, models);
  return { article, product, articleEvidence: evidence, productFeatures: pageFeatures, articleSeconds };
}

/** Fits every model on these pages (their runs give the features, their truths the labels). */
export function trainModels(pages: CorpusPage[], runs: PageRun[]): ExtractionModels {
  return {
    ...trainArticleFieldModels(pages, runs),
    articlePage: fitLogistic(pages.map((page, i) => ({ features: runs[i].articleEvidence.pageFeatures, label: page.pageType === 'article' }))),
    productPage: fitLogistic(pages.map((page, i) => ({ features: runs[i].productFeatures, label: page.pageType === 'product' }))),
  };
}

/** The article fields' models (headline, author, date): they need only the article evidence (bench/extraction/article-fields.ts fits them alone). */
export function trainArticleFieldModels(pages: CorpusPage[], runs: Pick<PageRun, 'articleEvidence'>[]): Pick<ExtractionModels, 'headline' | 'author' | 'date'> {
  const headlineExamples: Example[] = [];
  pages.forEach((page, i) => {
    const truth = normalisedField('headline', page.truth.headline);
    // Article pages only: the headline is an article's field, and a service or product page's "headline" (WCXB labels one) is often its site's slogan or a section's name.
    if (!truth || page.pageType !== 'article') return;
    for (const candidate of runs[i].articleEvidence.headlineCandidates) headlineExamples.push({ features: candidate.features, label: normalisedField('headline', candidate.text) === truth });
  });
  const wcxb = pages.map((_, i) => i).filter((i) => pages[i].dataset === 'wcxb-dev'); // the only set whose truth says who wrote it and when (or that nobody/no date is named)
  const author = fittedWithThreshold(
    wcxb.map((i) => ({ truth: normalisedField('author', pages[i].truth.author), candidates: runs[i].articleEvidence.authorCandidates.map((c) => ({ features: c.features, value: normalisedField('author', c.text) })) })),
  );
  const date = fittedWithThreshold(
    wcxb.map((i) => ({ truth: normalisedField('date', pages[i].truth.datePublished), candidates: runs[i].articleEvidence.dateCandidates.map((c) => ({ features: c.features, value: normalisedField('date', c.iso) })) })),
  );
  return { author, date, headline: fitLogistic(headlineExamples) };
}

/**
 * A model that may answer nothing (author, date): fitted on every candidate (calibrated, not
 * balanced), then its answer threshold set for the best F1 over these pages.
 */
function fittedWithThreshold(pages: { truth: string; candidates: { features: FeatureValues; value: string }[] }[]): LogisticModel {
  const model = fitLogistic(
    pages.flatMap((page) => page.candidates.map((c) => ({ features: c.features, label: page.truth !== '' && c.value === page.truth }))),
    undefined,
    false,
  );
  const choices: PageChoice[] = pages.map((page) => {
    let best = { score: 0, right: false };
    for (const c of page.candidates) {
      const score = predictProbability(model, c.features);
      if (score > best.score) best = { score, right: page.truth !== '' && c.value === page.truth };
    }
    return { ...best, hasTruth: page.truth !== '' };
  });
  return { ...model, threshold: answerThreshold(choices) };
}

/**
 * The run as the engine would have made it with other models: the models decide only the
 * fields modelledArticleFields / modelledProductFields give, from evidence that does not
 * depend on them (tested: cross-validation.test.ts), so re-applying them is exact. The body
 * model is not re-applied: the run must have been extracted with `models.body`.
 */
export function withModels(run: PageRun, models: ExtractionModels): PageRun {
  const article = { ...run.article, ...modelledArticleFields(run.articleEvidence, models) };
  for (const key of ['headline', 'author', 'datePublished', 'datePublishedRaw'] as const) if (article[key] === undefined) delete article[key];
  if (!article.authorsList?.length) delete article.authorsList;
  return { ...run, article, product: { ...run.product, ...modelledProductFields(run.productFeatures, models) } };
}

export interface CrossValidation {
  pages: CorpusPage[];
  /** Each page as extracted with models fitted on the other folds' sites. */
  crossValidated: PageRun[];
  /** Each page extracted with the given (shipped) models, but the body model fitted on every page (the shipped one once the weights are current). */
  inSample: PageRun[];
  /** The models fitted on every page (what train-models.ts ships). */
  fittedOnAll: ExtractionModels;
}

/**
 * Three extraction passes. The body model decides at extraction (its choice prunes what the
 * other fields read), so it cannot be re-applied to evidence: the first pass gathers every
 * body candidate with its text (which no model changes); each fold's pages are then extracted
 * with the body model fitted on the other folds' sites (the cross-validated runs) and every
 * page with the body model fitted on all (in-sample). The other models are re-applied to each
 * pass's evidence as before: per fold, fitted on the other folds' runs.
 */
export function crossValidate(pages: CorpusPage[], shipped: ExtractionModels = SHIPPED_MODELS): CrossValidation {
  const rules = { ...shipped, body: undefined };
  const bodyPages = pages.map((page) => runPage(page, rules, true)).map((run, i) => bodyTrainingPage(pages[i], run));
  const bodyModels = Array.from({ length: FOLDS }, (_, fold) => fitBodyChoice(bodyPages.filter((_, i) => pages[i].fold !== fold)));
  const fittedBody = fitBodyChoice(bodyPages);
  const crossValidatedRuns = pages.map((page) => runPage(page, { ...shipped, body: bodyModels[page.fold] }));
  const inSampleRuns = pages.map((page) => runPage(page, { ...shipped, body: fittedBody }));
  const crossValidated: PageRun[] = new Array(pages.length);
  for (let fold = 0; fold < FOLDS; fold++) {
    const training = pages.map((_, i) => i).filter((i) => pages[i].fold !== fold);
    const models = { ...trainModels(training.map((i) => pages[i]), training.map((i) => crossValidatedRuns[i])), body: bodyModels[fold] };
    pages.forEach((page, i) => {
      if (page.fold === fold) crossValidated[i] = withModels(crossValidatedRuns[i], models);
    });
  }
  const fittedOnAll = { ...trainModels(pages, inSampleRuns), body: fittedBody };
  return { pages, crossValidated, inSample: inSampleRuns, fittedOnAll };
}
