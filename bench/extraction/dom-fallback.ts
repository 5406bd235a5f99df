/**
 * `node dist/bench/extraction/dom-fallback.js`: how the product reader does on shops it was
 * never tuned on when a page has no structured data. The product benchmark's dev half has 22
 * sites (20 of its 70 pages from one); WCXB's dev product pages come from over 100 others
 * but have no price, sku or availability truth. On those whose structured data gives a price (or sku, availability),
 * that value stands in for the truth: the page is read again with its JSON-LD, microdata and
 * RDFa taken out, so only what the page shows is left, and the answer is compared with it.
 * Prints the agreement counts and every disagreement. The stand-in is not always right
 * (a record's price may be another variant's than the one shown): read the list, do not
 * tune to the count.
 */
import { amountFromData, availabilityFromSchema, extractProduct, metaValue, offerPriceData, parseLightPage, productRecords, propertyText, readStructuredData, StructuredData } from '@crawlhub/extraction';
import { loadDataset } from '../extraction-datasets';
import { countPage, emptyCounts, score } from './product-score';

/** The page without its structured data: JSON-LD scripts gone, microdata and RDFa attributes renamed. */
function withoutStructuredData(html: string): string {
  return html
    .replace(/<script[^>]*application\/ld\+json[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/\b(itemprop|itemscope|itemtype|property|typeof|vocab)=/gi, 'data-removed-$1=');
}

/**
 * The amounts the page's structured data states (its offers', product:price meta tags): the
 * reader's answer with the data stands in for the truth only when it is one of them (where
 * the data has none, or a label on the page wins, the reader reads the page, and would
 * agree with itself).
 */
function structuredAmounts(data: StructuredData): number[] {
  const meta = metaValue(data, 'product:price:amount', 'og:price:amount', 'product:price', 'og:price');
  return [...productRecords(data).offers.map((offer) => offerPriceData(offer)), meta].map((value) => Number(amountFromData(value))).filter((amount) => amount > 0);
}

/** The codes the structured data states as the product's sku (its own, its offers', its productID), likewise. */
function structuredSkus(data: StructuredData): string[] {
  const { product, offers } = productRecords(data);
  return [propertyText(product, 'sku'), ...offers.map((offer) => propertyText(offer, 'sku')), propertyText(product, 'productID'), propertyText(product, 'productId')].filter(
    (code): code is string => code !== undefined,
  );
}

/**
 * The availability the offers state, the one whose price the reader chose first, else the
 * product:availability meta tag (not the
 * reader's answer: an add-to-cart button outweighs a stated OutOfStock, and the page alone
 * would agree with itself).
 */
function structuredAvailability(data: StructuredData, chosenPrice: string | undefined): string | undefined {
  const { offers } = productRecords(data);
  const chosen = offers.filter((offer) => chosenPrice !== undefined && Number(amountFromData(offerPriceData(offer))) === Number(chosenPrice));
  return (
    [...chosen, ...offers].map((offer) => availabilityFromSchema(propertyText(offer, 'availability'))).find(Boolean) ??
    availabilityFromSchema(metaValue(data, 'product:availability', 'og:availability'))
  );
}

interface Agreement {
  stated: number;
  same: number;
  none: number;
  different: number;
}

function main(): void {
  const pages = loadDataset<{ url: string; pageType: string }>('wcxb-dev').filter((p) => p.truth.pageType === 'product');
  const price: Agreement = { stated: 0, same: 0, none: 0, different: 0 };
  const sku: Agreement = { stated: 0, same: 0, none: 0, different: 0 };
  const availability: Agreement = { stated: 0, same: 0, none: 0, different: 0 };
  const differences: string[] = [];
  // Pages where the reader with the data gives a price and the page alone another or none: where the record and the page disagree.
  let recordAgainstPage = 0;
  const compare = (counts: Agreement, field: string, id: string, url: string, stated: string | undefined, shown: string | undefined, same: (a: string, b: string) => boolean) => {
    if (stated === undefined) return;
    counts.stated++;
    if (shown === undefined) counts.none++;
    else if (same(stated, shown)) counts.same++;
    else counts.different++;
    if (shown === undefined || !same(stated, shown)) differences.push([id, field, stated, shown ?? '(none)', url].join('\t'));
  };
  for (const page of pages) {
    const bare = withoutStructuredData(page.html);
    if (bare === page.html) continue;
    const [withData, shownOnly] = [extractProduct(page.html, page.url), extractProduct(bare, page.url)];
    const data = readStructuredData(parseLightPage(page.html), page.url);
    const statedPrice = withData.offers?.[0]?.price;
    if (statedPrice !== undefined && Number(statedPrice) !== Number(shownOnly.offers?.[0]?.price)) recordAgainstPage++;
    const structuredPrice = statedPrice !== undefined && structuredAmounts(data).includes(Number(statedPrice));
    compare(price, 'price', page.id, page.url, structuredPrice ? statedPrice : undefined, shownOnly.offers?.[0]?.price, (a, b) => Number(a) === Number(b));
    const structuredSku = withData.sku !== undefined && structuredSkus(data).includes(withData.sku);
    compare(sku, 'sku', page.id, page.url, structuredSku ? withData.sku : undefined, shownOnly.sku, (a, b) => a === b);
    compare(availability, 'availability', page.id, page.url, structuredAvailability(data, statedPrice), shownOnly.offers?.[0]?.availability, (a, b) => a === b);
  }
  const line = (name: string, a: Agreement) =>
    `  ${name.padEnd(12)} ${a.stated} pages with a structured value: read from the page alone the same ${a.same} (${((100 * a.same) / Math.max(1, a.stated)).toFixed(0)}%), none ${a.none}, another ${a.different}`;
  console.log(`WCXB dev product pages (${pages.length}), structured data taken out, against what it stated:`);
  console.log(line('price', price));
  console.log(line('sku', sku));
  console.log(line('availability', availability));
  console.log(`  price read with the data, and another or none from the page alone: ${recordAgainstPage} pages`);
  // The product benchmark's dev pages the same way, against their truth (the rules were written on these: in-sample).
  const dev = emptyCounts();
  for (const page of loadDataset<{ url: string; price?: string[] }>('product-extraction-dev')) {
    countPage(dev, extractProduct(withoutStructuredData(page.html), page.url).offers?.[0]?.price, page.truth.price, 'decimal');
  }
  const devScore = score(dev);
  console.log(`product-dev pages (rules written on them), structured data taken out: price F1 ${devScore.f1.toFixed(3)} (${dev.tp}/${dev.fp}/${dev.fn} tp/fp/fn)`);
  console.log(`\nid\tfield\tstated\tfrom the page alone\turl\n${differences.join('\n')}`);
}

main();
