import { extractProduct, Product } from '@crawlhub/extraction';
import { loadDataset } from './extraction-datasets';
import { AttributeCounts, availabilityPrediction, countPage, emptyCounts, score, ValueComparison } from './extraction/product-score';

/**
 * `npm run bench:extraction-product`: the product half of the extraction engine on the
 * product benchmark's development pages (datasets/product-extraction-dev), scored with
 * the README's metric, and the engine's speed (parsing included, one core).
 * PRODUCT_BENCH_MISSES=1 prints every page's wrong or missing value of the scored fields.
 */
interface ProductTruth {
  url: string;
  price?: string[];
  currency?: string[];
  availability?: string[];
  InStock?: string[];
  OutOfStock?: string[];
  sku?: string[];
  brand?: string[];
  mpn?: string[];
  gtin?: string[];
}

interface Attribute {
  name: string;
  target?: number;
  leader?: number;
  comparison?: ValueComparison;
  predicted(product: Product): string | undefined;
  truth(truth: ProductTruth): string[] | undefined;
}

const availabilityOf = (p: Product) => availabilityPrediction(p.offers?.[0]?.availability);
const ATTRIBUTES: Attribute[] = [
  { name: 'price', target: 0.93, leader: 0.93, comparison: 'decimal', predicted: (p) => p.offers?.[0]?.price, truth: (t) => t.price },
  { name: 'sku', target: 0.91, leader: 0.908, predicted: (p) => p.sku, truth: (t) => t.sku },
  { name: 'availability', target: 0.96, leader: 0.957, predicted: availabilityOf, truth: (t) => t.availability },
  { name: 'InStock', predicted: (p) => (availabilityOf(p) === 'InStock' ? 'InStock' : undefined), truth: (t) => t.InStock },
  { name: 'OutOfStock', predicted: (p) => (availabilityOf(p) === 'OutOfStock' ? 'OutOfStock' : undefined), truth: (t) => t.OutOfStock },
  { name: 'brand', predicted: (p) => p.brand, truth: (t) => t.brand },
  { name: 'mpn', predicted: (p) => p.mpn, truth: (t) => t.mpn },
  { name: 'gtin', predicted: (p) => p.gtin?.[0]?.value, truth: (t) => t.gtin },
  { name: 'currency', predicted: (p) => p.offers?.[0]?.currency, truth: (t) => t.currency },
];
const SCORED = ['price', 'sku', 'availability'];

export async function productExtractionBench(): Promise<void> {
  const pages = loadDataset<ProductTruth>('product-extraction-dev');
  const showMisses = process.env.PRODUCT_BENCH_MISSES === '1';

  // Warm-up pass (JIT), then the timed pass whose results are scored.
  for (const page of pages.slice(0, 10)) extractProduct(page.html, page.url);
  const cpuStart = process.cpuUsage();
  const wallStart = process.hrtime.bigint();
  const products = pages.map((page) => extractProduct(page.html, page.url));
  const wallSeconds = Number(process.hrtime.bigint() - wallStart) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;

  const counts = new Map<string, AttributeCounts>(ATTRIBUTES.map((a) => [a.name, emptyCounts()]));
  pages.forEach((page, i) => {
    for (const attribute of ATTRIBUTES) {
      const predicted = attribute.predicted(products[i]);
      const truth = attribute.truth(page.truth);
      countPage(counts.get(attribute.name)!, predicted, truth, attribute.comparison);
      if (showMisses && SCORED.includes(attribute.name) && missed(predicted, truth, attribute.comparison)) {
        console.log(`  miss ${attribute.name.padEnd(12)} ${page.id.slice(0, 8)} ${new URL(page.url).hostname.padEnd(26)} predicted ${JSON.stringify(predicted)} truth ${JSON.stringify(truth)}`);
      }
    }
  });

  console.log(`\nproduct extraction on ${pages.length} pages (product-extraction-dev, README metric)`);
  console.log(`${'attribute'.padEnd(14)}${'precision'.padStart(10)}${'recall'.padStart(9)}${'F1'.padStart(8)}${'target'.padStart(9)}${'leader'.padStart(9)}   tp/fp/fn`);
  for (const attribute of ATTRIBUTES) {
    const s = score(counts.get(attribute.name)!);
    const verdict = attribute.target === undefined ? '' : s.f1 >= attribute.target ? '  ok' : '  BELOW TARGET';
    console.log(
      `${attribute.name.padEnd(14)}${s.precision.toFixed(3).padStart(10)}${s.recall.toFixed(3).padStart(9)}${s.f1.toFixed(3).padStart(8)}` +
        `${(attribute.target?.toFixed(2) ?? '-').padStart(9)}${(attribute.leader?.toFixed(3) ?? '-').padStart(9)}   ${s.tp}/${s.fp}/${s.fn}${verdict}`,
    );
  }
  const pagesPerCpuSecond = pages.length / cpuSeconds;
  console.log(
    `speed: ${pagesPerCpuSecond.toFixed(0)} pages/s per core (CPU time; ${(pages.length / wallSeconds).toFixed(0)} pages/s wall), parsing included, target >= 100${pagesPerCpuSecond >= 100 ? '  ok' : '  BELOW TARGET'}`,
  );
}

function missed(predicted: string | undefined, truth: string[] | undefined, comparison?: ValueComparison): boolean {
  const counts = emptyCounts();
  countPage(counts, predicted, truth, comparison);
  return counts.fp + counts.fn > 0;
}
