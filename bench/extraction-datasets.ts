import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * The extraction benchmarks' development halves (../shared/datasets, or EXTRACTION_DATASETS):
 * `<name>/html/<id>.html.gz` and `<name>/ground-truth.json` (their READMEs define the
 * metrics). One loader for every extraction bench section.
 */
export type DatasetName = 'article-extraction-dev' | 'product-extraction-dev' | 'wcxb-dev';

/** Environment variables that point a dataset elsewhere (e.g. a benchmark's held-back half, same layout). */
const DATASET_OVERRIDES: Record<DatasetName, string> = { 'article-extraction-dev': 'ARTICLE_DATASET', 'product-extraction-dev': 'PRODUCT_DATASET', 'wcxb-dev': 'WCXB_DATASET' };

export interface DatasetPage<T> {
  id: string;
  /** The page's original address (from the ground truth). */
  url: string;
  html: string;
  truth: T;
}

function datasetsDir(): string {
  const candidates = [process.env.EXTRACTION_DATASETS, join(__dirname, '../../../shared/datasets'), join(__dirname, '../../shared/datasets'), '/work/shared/datasets'];
  const found = candidates.find((d): d is string => d !== undefined && existsSync(d));
  if (!found) throw new Error(`the extraction datasets are not found (set EXTRACTION_DATASETS; looked in ${candidates.filter(Boolean).join(', ')})`);
  return found;
}

/** The folder of a dataset (`ground-truth.json` and `html/<id>.html.gz`): ARTICLE_DATASET / PRODUCT_DATASET / WCXB_DATASET, else under datasetsDir(). */
export function datasetDir(name: DatasetName): string {
  return process.env[DATASET_OVERRIDES[name]] || join(datasetsDir(), name);
}

/** The compressed page file of one dataset page. */
export function pageFile(name: DatasetName, id: string): string {
  return join(datasetDir(name), 'html', `${id}.html.gz`);
}

/** Every page of a dataset with its ground truth, sorted by id (the same order every run). */
export function loadDataset<T extends { url: string }>(name: DatasetName): DatasetPage<T>[] {
  const dir = datasetDir(name);
  const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<string, T>;
  return Object.keys(truth)
    .sort()
    .map((id) => ({ id, url: truth[id].url, html: gunzipSync(readFileSync(pageFile(name, id))).toString('utf8'), truth: truth[id] }));
}
