/**
 * `npm run bench:article-fields [-- misses.tsv]`: the site-grouped cross-validated F1 of the
 * article fields alone (headline, author, datePublished on WCXB dev articles), in about a
 * minute instead of bench:extraction-quality's seven: only the pages whose truth trains or
 * scores these models are extracted (article-dev, WCXB dev), only as articles, and only the
 * three field models are refitted per fold. The folds and the fitting are train-models.ts's,
 * so its figures are the same. With a file name, every page the engine gets wrong (ours and
 * the truth, per field) is written there, to sort the misses by cause.
 */
import { writeFileSync } from 'node:fs';
import { SHIPPED_MODELS, extractArticleWithEvidence, modelledArticleFields } from '@crawlhub/extraction';
import type { Article } from '@crawlhub/extraction';
import { FOLDS, loadCorpus, trainArticleFieldModels } from './cross-validation';
import { ArticleField, countField, emptyFieldCounts, fieldF1, normalisedField } from './field-score';

const FIELDS: [ArticleField, 'headline' | 'author' | 'datePublished'][] = [
  ['headline', 'headline'],
  ['author', 'author'],
  ['date', 'datePublished'],
];

export function answer(article: Pick<Article, 'headline' | 'author' | 'authorsList' | 'datePublished'>, field: ArticleField): string | undefined {
  if (field === 'headline') return article.headline;
  if (field === 'author') return article.author || article.authorsList?.join(', '); // the metric: authorsList when author is empty
  return article.datePublished;
}

/** Every page's evidence and its fields as the models fitted on the other folds' sites answer them; `scored`: the WCXB dev articles' indexes. */
export function crossValidatedArticleFields() {
  const pages = loadCorpus(['article-extraction-dev', 'wcxb-dev']);
  const runs = pages.map((page) => ({ articleEvidence: extractArticleWithEvidence(page.html, page.url, { articleBodyRaw: false }, SHIPPED_MODELS).evidence }));
  const answers: ReturnType<typeof modelledArticleFields>[] = new Array(pages.length);
  for (let fold = 0; fold < FOLDS; fold++) {
    const training = pages.map((_, i) => i).filter((i) => pages[i].fold !== fold);
    const models = { ...SHIPPED_MODELS, ...trainArticleFieldModels(training.map((i) => pages[i]), training.map((i) => runs[i])) };
    pages.forEach((page, i) => {
      if (page.fold === fold) answers[i] = modelledArticleFields(runs[i].articleEvidence, models);
    });
  }
  const scored = pages.map((_, i) => i).filter((i) => pages[i].dataset === 'wcxb-dev' && pages[i].pageType === 'article');
  return { pages, runs, answers, scored };
}

function main(): void {
  const { pages, answers, scored } = crossValidatedArticleFields();
  const misses: string[] = ['field\tid\turl\tours\ttruth'];
  for (const [field, truthKey] of FIELDS) {
    const counts = emptyFieldCounts();
    for (const i of scored) {
      const [ours, truth] = [answer(answers[i], field), pages[i].truth[truthKey]];
      countField(counts, field, ours, truth);
      if (normalisedField(field, ours) !== normalisedField(field, truth)) misses.push([field, pages[i].id, pages[i].url, ours ?? '', truth ?? ''].map((v) => String(v).replace(/\s+/g, ' ')).join('\t'));
    }
    const { precision, recall, f1 } = fieldF1(counts);
    console.log(`  WCXB dev article ${truthKey.padEnd(14)} F1 ${f1.toFixed(3)}  (precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}; ${scored.length} pages, cross-validated)`);
  }
  const file = process.argv[2];
  if (file) writeFileSync(file, `${misses.join('\n')}\n`);
}

if (require.main === module) main();
