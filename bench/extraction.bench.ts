import { Readability } from '@mozilla/readability';
import { extractArticle } from '@crawlhub/extraction';
import { parseHTML } from 'linkedom';
import { CorpusScore, PageScore, scoreCorpus, scorePage } from './extraction/article-body-score';
import { DatasetPage, datasetDir, loadDataset } from './extraction-datasets';

const ARTICLE_TARGETS: CorpusScore = { f1: 0.97, precision: 0.97, recall: 0.97, accuracy: 0 };
const PAGES_PER_SECOND_TARGET = 100;

type ArticlePage = DatasetPage<{ url: string; articleBody: string }>;

type BodyExtractor = (page: ArticlePage) => string;

const ENGINES: Record<string, BodyExtractor> = {
  crawlhub: (page) => extractArticle(page.html, page.url, { articleBodyRaw: false }).articleBody ?? '',
  'Readability.js': (page) => new Readability(parseHTML(page.html).document).parse()?.textContent ?? '',
};

const SPEED_ROUNDS = 3;

/**
 * Pages per second of one engine over all pages on this one thread, by wall clock and by the
 * process's CPU time (which also counts V8's helper threads: GC), the best of a few rounds
 * (the machine is shared, so the best round is the least disturbed).
 */
function pagesPerSecond(pages: ArticlePage[], extract: BodyExtractor): { wall: number; cpu: number } {
  let best = { wall: 0, cpu: 0 };
  for (let round = 0; round < SPEED_ROUNDS; round++) {
    const cpuStart = process.cpuUsage();
    const wallStart = process.hrtime.bigint();
    for (const page of pages) extract(page);
    const wallSeconds = Number(process.hrtime.bigint() - wallStart) / 1e9;
    const cpu = process.cpuUsage(cpuStart);
    best = { wall: Math.max(best.wall, pages.length / wallSeconds), cpu: Math.max(best.cpu, pages.length / ((cpu.user + cpu.system) / 1e6)) };
  }
  return best;
}

const pad = (text: string, width: number) => text.padEnd(width);
const figure = (value: number) => value.toFixed(3);

/** `extraction [pages]`: article body quality next to Readability, then speed; `pages` lists each page's P/R. */
export async function articleExtractionBench(options: { perPage?: boolean } = {}): Promise<void> {
  const pages: ArticlePage[] = loadDataset('article-extraction-dev');
  const perPage: Record<string, PageScore[]> = {};
  for (const [name, extract] of Object.entries(ENGINES)) perPage[name] = pages.map((page) => scorePage(page.truth.articleBody, extract(page)));

  console.log(`article body, ${pages.length} pages (${datasetDir('article-extraction-dev')})`);
  console.log(`  ${pad('engine', 16)}${pad('F1', 8)}${pad('precision', 11)}${pad('recall', 8)}accuracy`);
  for (const [name, scores] of Object.entries(perPage)) {
    const corpus = scoreCorpus(scores);
    console.log(`  ${pad(name, 16)}${pad(figure(corpus.f1), 8)}${pad(figure(corpus.precision), 11)}${pad(figure(corpus.recall), 8)}${figure(corpus.accuracy)}`);
  }
  const ourQuality = scoreCorpus(perPage.crawlhub);
  console.log(`  ${pad('target', 16)}${pad(`≥ ${ARTICLE_TARGETS.f1}`, 8)}  (F1 ${ourQuality.f1 >= ARTICLE_TARGETS.f1 ? 'met' : 'NOT met'}; published leader 0.970, Readability.js 0.947)`);

  if (options.perPage) {
    console.log('  per page, worst F1 first: id  precision  recall  (crawlhub | Readability.js)');
    const f1 = (s: PageScore) => ((s.precision ?? 0) + (s.recall ?? 0) ? (2 * (s.precision ?? 0) * (s.recall ?? 0)) / ((s.precision ?? 0) + (s.recall ?? 0)) : 0);
    const order = pages.map((_, i) => i).sort((a, b) => f1(perPage.crawlhub[a]) - f1(perPage.crawlhub[b]));
    for (const i of order) {
      const [ourScore, theirs] = [perPage.crawlhub[i], perPage['Readability.js'][i]];
      console.log(`  ${pages[i].id.slice(0, 12)}  ${figure(ourScore.precision ?? 0)} ${figure(ourScore.recall ?? 0)} | ${figure(theirs.precision ?? 0)} ${figure(theirs.recall ?? 0)}  ${pages[i].url}`);
    }
  }

  const speed = Object.fromEntries(Object.entries(ENGINES).map(([name, extract]) => [name, pagesPerSecond(pages, extract)]));
  const [ours, baseline] = [speed.crawlhub, speed['Readability.js']];
  console.log(`article engine speed (parsing included, one thread, best of ${SPEED_ROUNDS} rounds)`);
  console.log(`  ${pad('engine', 16)}${pad('wall pages/s', 14)}${pad('CPU pages/s', 13)}target`);
  console.log(`  ${pad('crawlhub', 16)}${pad(ours.wall.toFixed(0), 14)}${pad(ours.cpu.toFixed(0), 13)}≥ ${PAGES_PER_SECOND_TARGET} (${ours.wall >= PAGES_PER_SECOND_TARGET ? 'met' : 'NOT met'} by wall clock)`);
  console.log(`  ${pad('Readability.js', 16)}${pad(baseline.wall.toFixed(0), 14)}${pad(baseline.cpu.toFixed(0), 13)}(baseline: crawlhub is ${(ours.wall / baseline.wall).toFixed(2)}x)`);
}
