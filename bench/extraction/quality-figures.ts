import { rocAuc, ArticleField, countField, emptyFieldCounts, fieldF1 } from './field-score';
import { scoreCorpus, scorePage } from './article-body-score';
import { availabilityPrediction, countPage, emptyCounts, score, ValueComparison } from './product-score';
import type { CorpusPage, PageRun } from './cross-validation';
import type { PeerAnswer } from './trafilatura';

/** One line of the quality table: a figure per system (undefined: the system gives no such figure). */
export interface QualityRow {
  label: string;
  pages: number;
  values: (number | undefined)[];
}

export const WCXB_TYPES = ['article', 'service', 'product', 'collection', 'forum', 'listing', 'documentation'];
const FIELDS: [ArticleField, string, string][] = [
  ['headline', 'headline', 'headline'],
  ['author', 'author', 'author'],
  ['date', 'datePublished', 'date'],
];
const PRODUCT_FIELDS: { name: string; comparison?: ValueComparison; predicted(run: PageRun): string | undefined }[] = [
  { name: 'price', comparison: 'decimal', predicted: (r) => r.product.offers?.[0]?.price },
  { name: 'sku', predicted: (r) => r.product.sku },
  { name: 'availability', predicted: (r) => availabilityPrediction(r.product.offers?.[0]?.availability) },
  { name: 'brand', predicted: (r) => r.product.brand },
  { name: 'mpn', predicted: (r) => r.product.mpn },
  { name: 'currency', predicted: (r) => r.product.offers?.[0]?.currency },
];

/** A system's answers on the corpus: our runs, or a peer's (body and article fields only). */
export type SystemAnswers = { kind: 'ours'; runs: PageRun[] } | { kind: 'peer'; answers: (PeerAnswer | undefined)[] };

function body(system: SystemAnswers, i: number): string {
  return system.kind === 'ours' ? system.runs[i].article.articleBody ?? '' : system.answers[i]?.body ?? '';
}

function field(system: SystemAnswers, i: number, name: ArticleField): string | undefined {
  if (system.kind === 'peer') return system.answers[i]?.[name];
  const article = system.runs[i].article;
  if (name === 'headline') return article.headline;
  if (name === 'author') return article.author || article.authorsList?.join(', '); // the metric: authorsList when author is empty
  return article.datePublished;
}

/** The bench's quality table (issue 19's metrics), one value column per system. */
export function qualityRows(pages: CorpusPage[], systems: SystemAnswers[]): QualityRow[] {
  const rows: QualityRow[] = [];
  const indices = (keep: (p: CorpusPage) => boolean) => pages.map((_, i) => i).filter((i) => keep(pages[i]));
  const bodyRow = (label: string, chosen: number[]) =>
    rows.push({ label, pages: chosen.length, values: systems.map((s) => scoreCorpus(chosen.map((i) => scorePage(pages[i].truth.articleBody ?? '', body(s, i)))).f1) });

  bodyRow('article-dev body F1', indices((p) => p.dataset === 'article-extraction-dev'));
  bodyRow('WCXB dev body F1, all types', indices((p) => p.dataset === 'wcxb-dev'));
  for (const type of WCXB_TYPES) bodyRow(`  ${type}`, indices((p) => p.dataset === 'wcxb-dev' && p.pageType === type));
  const wcxbArticles = indices((p) => p.dataset === 'wcxb-dev' && p.pageType === 'article');
  for (const [name, truthKey, label] of FIELDS) {
    rows.push({
      label: `WCXB dev article ${label} F1`,
      pages: wcxbArticles.length,
      values: systems.map((s) => {
        const counts = emptyFieldCounts();
        for (const i of wcxbArticles) countField(counts, name, field(s, i, name), pages[i].truth[truthKey]);
        return fieldF1(counts).f1;
      }),
    });
  }
  const products = indices((p) => p.dataset === 'product-extraction-dev');
  for (const attribute of PRODUCT_FIELDS) {
    rows.push({
      label: `product-dev ${attribute.name} F1`,
      pages: products.length,
      values: systems.map((s) => {
        if (s.kind !== 'ours') return undefined;
        const counts = emptyCounts();
        for (const i of products) countPage(counts, attribute.predicted(s.runs[i]), pages[i].truth[attribute.name], attribute.comparison);
        return score(counts).f1;
      }),
    });
  }
  // Page type: ROC AUC of `probability` on WCXB dev.
  const wcxb = indices((p) => p.dataset === 'wcxb-dev');
  for (const type of WCXB_TYPES.filter((t) => t !== 'article')) {
    const others = wcxb.filter((i) => pages[i].pageType === type);
    rows.push({
      label: `article probability AUC, article vs ${type}`,
      pages: wcxbArticles.length + others.length,
      values: systems.map((s) => (s.kind === 'ours' ? rocAuc(wcxbArticles.map((i) => s.runs[i].article.probability), others.map((i) => s.runs[i].article.probability)) : undefined)),
    });
  }
  rows.push({
    label: 'article probability AUC, article vs all others',
    pages: wcxb.length,
    values: systems.map((s) => (s.kind === 'ours' ? rocAuc(wcxbArticles.map((i) => s.runs[i].article.probability), wcxb.filter((i) => pages[i].pageType !== 'article').map((i) => s.runs[i].article.probability)) : undefined)),
  });
  const isProduct = (i: number) => pages[i].pageType === 'product';
  rows.push({
    label: 'product probability AUC, product vs all others',
    pages: wcxb.length,
    values: systems.map((s) => (s.kind === 'ours' ? rocAuc(wcxb.filter(isProduct).map((i) => s.runs[i].product.probability), wcxb.filter((i) => !isProduct(i)).map((i) => s.runs[i].product.probability)) : undefined)),
  });
  return rows;
}

export function formatRows(header: string[], rows: QualityRow[]): string[] {
  const labelWidth = Math.max(...rows.map((r) => r.label.length)) + 2;
  const lines = [`  ${'figure'.padEnd(labelWidth)}${'pages'.padStart(6)}${header.map((h) => h.padStart(Math.max(12, h.length + 2))).join('')}`];
  for (const row of rows) {
    lines.push(`  ${row.label.padEnd(labelWidth)}${String(row.pages).padStart(6)}${row.values.map((v, i) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(3)).padStart(Math.max(12, header[i].length + 2))).join('')}`);
  }
  return lines;
}
