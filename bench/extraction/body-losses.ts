/**
 * `npm run bench:body-losses [-- peer-cache.json [page-f1.tsv]]`: where the article body loses to trafilatura
 * on WCXB dev article pages, page by page, sorted into classes by what went wrong. The body
 * figures are site-grouped cross-validated as in bench:extraction-quality (the body model fitted
 * per fold on the other folds' sites of article-dev and WCXB dev), in a third of its time: only
 * the article extraction runs, and only the body model is refitted. With a file name,
 * trafilatura's answers are kept there and read back on the next run (its run is the slow part);
 * with a second, every page's cross-validated F1 is written there (to diff two versions).
 *
 * Classes of a page where trafilatura's F1 is higher (ours: P precision, R recall):
 *   empty        we give (almost) no body
 *   wrong        our body barely overlaps the truth (P and R both < 0.5): another container
 *   narrow       our body is truth (P ≥ 0.8) but misses much of it (R < 0.7): a container too small
 *   dropped      our recall is lower than trafilatura's: parts pruned inside the right container
 *   boilerplate  our precision is lower: furniture kept
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { SHIPPED_MODELS, extractArticleWithEvidence } from '@crawlhub/extraction';
import { scoreCorpus, scorePage } from './article-body-score';
import { bodyTrainingPage, fitBodyChoice } from './body-fit';
import { CorpusPage, FOLDS, PageRun, loadCorpus } from './cross-validation';
import { PeerAnswer, runTrafilatura } from './trafilatura';

const EMPTY_TOKENS = 10;
const CLASSES = ['empty', 'wrong', 'narrow', 'dropped', 'boilerplate'] as const;
type LossClass = (typeof CLASSES)[number];

function f1Of(precision = 0, recall = 0): number {
  return precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
}

/** Each page's body text as the cross-validated engine extracts it. */
function crossValidatedBodies(pages: CorpusPage[]): string[] {
  const rules = { ...SHIPPED_MODELS, body: undefined };
  const training = pages.map((page) => {
    const { evidence } = extractArticleWithEvidence(page.html, page.url, { articleBodyRaw: false }, rules, true);
    return bodyTrainingPage(page, { articleEvidence: evidence } as PageRun);
  });
  const models = Array.from({ length: FOLDS }, (_, fold) => fitBodyChoice(training.filter((_, i) => pages[i].fold !== fold)));
  return pages.map((page) => extractArticleWithEvidence(page.html, page.url, { articleBodyRaw: false }, { ...SHIPPED_MODELS, body: models[page.fold] }).article.articleBody ?? '');
}

async function peerAnswers(pages: CorpusPage[], cacheFile: string | undefined): Promise<Map<string, PeerAnswer> | undefined> {
  if (cacheFile && existsSync(cacheFile)) return new Map(Object.entries(JSON.parse(readFileSync(cacheFile, 'utf8')) as Record<string, PeerAnswer>));
  const run = await runTrafilatura(pages);
  if (!run.ok) {
    console.log(`  trafilatura: skipped (${run.why})`);
    return undefined;
  }
  if (cacheFile) writeFileSync(cacheFile, JSON.stringify(Object.fromEntries(run.answers)));
  return run.answers;
}

function lossClass(ours: { precision?: number; recall?: number }, theirs: { precision?: number; recall?: number }, ourTokens: number): LossClass {
  const [p, r] = [ours.precision ?? 0, ours.recall ?? 0];
  if (ourTokens < EMPTY_TOKENS) return 'empty';
  if (p < 0.5 && r < 0.5) return 'wrong';
  if (p >= 0.8 && r < 0.7) return 'narrow';
  return r - (theirs.recall ?? 0) < p - (theirs.precision ?? 0) ? 'dropped' : 'boilerplate';
}

async function main(): Promise<void> {
  const pages = loadCorpus(['article-extraction-dev', 'wcxb-dev']);
  const bodies = crossValidatedBodies(pages);
  const scores = pages.map((page, i) => scorePage(page.truth.articleBody ?? '', bodies[i]));
  const figure = (keep: (p: CorpusPage) => boolean) => {
    const corpus = scoreCorpus(scores.filter((_, i) => keep(pages[i])));
    return `${corpus.f1.toFixed(3)} (P ${corpus.precision.toFixed(3)} / R ${corpus.recall.toFixed(3)})`;
  };
  const f1File = process.argv[3];
  if (f1File) writeFileSync(f1File, pages.map((page, i) => `${page.dataset}/${page.id}\t${f1Of(scores[i].precision, scores[i].recall).toFixed(3)}\t${page.url}\n`).join(''));
  console.log(`body F1, cross-validated: article-dev ${figure((p) => p.dataset === 'article-extraction-dev')}, WCXB all types ${figure((p) => p.dataset === 'wcxb-dev')}, WCXB article ${figure((p) => p.dataset === 'wcxb-dev' && p.pageType === 'article')}`);

  const articles = pages.map((_, i) => i).filter((i) => pages[i].dataset === 'wcxb-dev' && pages[i].pageType === 'article');
  const peer = await peerAnswers(articles.map((i) => pages[i]), process.argv[2]);
  if (!peer) return;
  const losses = new Map<LossClass, { i: number; lost: number; line: string }[]>(CLASSES.map((c) => [c, []]));
  let theirTotal = 0;
  for (const i of articles) {
    const page = pages[i];
    const theirs = scorePage(page.truth.articleBody ?? '', peer.get(`${page.dataset}/${page.id}`)?.body ?? '');
    const [ourF1, theirF1] = [f1Of(scores[i].precision, scores[i].recall), f1Of(theirs.precision, theirs.recall)];
    theirTotal += theirF1;
    if (theirF1 <= ourF1) continue;
    const kind = lossClass(scores[i], theirs, bodies[i].split(/\s+/).filter(Boolean).length);
    const pr = (s: { precision?: number; recall?: number }) => `${(s.precision ?? 0).toFixed(2)} ${(s.recall ?? 0).toFixed(2)}`;
    losses.get(kind)!.push({ i, lost: theirF1 - ourF1, line: `${page.id}  ours ${pr(scores[i])} | trafilatura ${pr(theirs)}  ${page.url}` });
  }
  console.log(`WCXB dev article pages: ${articles.length}; per-page mean F1 trafilatura ${(theirTotal / articles.length).toFixed(3)}; pages where trafilatura is better, by class (points: the sum of per-page F1 differences):`);
  for (const kind of CLASSES) {
    const rows = losses.get(kind)!.sort((a, b) => b.lost - a.lost);
    console.log(`${kind}: ${rows.length} pages, ${rows.reduce((sum, r) => sum + r.lost, 0).toFixed(1)} points`);
    for (const row of rows) console.log(`  -${(100 * row.lost).toFixed(0).padStart(3)}  ${row.line}`);
  }
}

void main();
