import { Offer, Product } from '../extraction.types';
import { breadcrumbsIn, documentBaseUrl, DomElement, layoutText, parseLightPage, textOf } from '../dom';
import { metaValue, propertyText, readStructuredData, structuredBreadcrumbs, StructuredData, StructuredRecord } from '../structured-data';
import { availabilityFromSchema } from './availability';
import { addToCartButtons, disabledAddToCart, domAvailability, soldOutButton, soldOutUnderHeading } from './dom-availability';
import { domPrice, formerPrices, labelledPrice, priceUnderHeading, shownCurrencyFor } from './dom-price';
import { toGtin } from './gtin';
import { labelledCode } from './labelled-codes';
import { addressCode } from './address-code';
import { amountFromData, ParsedPrice, parsePrice } from './price';
import { additionalProperties, aggregateRating, cleanBrand, galleryImages, plainText, structuredImages, unique } from './product-fields';
import { PageScan, scanPage } from './page-scan';
import { FeatureValues } from '../model/logistic';
import { ExtractionModels, SHIPPED_MODELS } from '../model/models';
import { ProductPageSignals, productPageFeatures, productProbability } from './probability';
import { offerCurrencyData, offerPriceData, priceWithoutTax, productRecords } from './structured-product';

const ARTICLE_TYPES = ['Article', 'NewsArticle', 'BlogPosting', 'Report', 'ScholarlyArticle', 'TechArticle'];
const GTIN_PROPERTIES = ['gtin13', 'gtin12', 'gtin14', 'gtin8', 'gtin', 'isbn', 'ean', 'upc'];

/** A product page's fields (spec "Product"), from structured data first, then from what the page shows. */
export function extractProduct(html: string, url: string, models: ExtractionModels = SHIPPED_MODELS): Product {
  return extractProductWithEvidence(html, url, models).product;
}

/** The fields the fitted models decide, from the page-type features alone (the bench re-applies models this way). */
export function modelledProductFields(pageFeatures: FeatureValues, models: ExtractionModels): Pick<Product, 'probability'> {
  return { probability: productProbability(pageFeatures, models.productPage) };
}

/** extractProduct, with the page-type features its probability was computed from (what bench/extraction/train-models.ts fits on). */
export function extractProductWithEvidence(html: string, url: string, models: ExtractionModels = SHIPPED_MODELS): { product: Product; pageFeatures: FeatureValues } {
  const document = parseLightPage(html);
  const baseUrl = documentBaseUrl(document, url);
  const data = readStructuredData(document, url);
  const { product, offers, productsWithOffers } = productRecords(data);
  const lines = layoutText(document.body ?? document.documentElement).split('\n');
  const scan = scanPage(document.documentElement);

  const cartButtons = addToCartButtons(scan.buttons);
  const heading = document.querySelector('h1');
  const headingLine = heading ? layoutText(heading) : '';
  const { offer: markedOffer, statesAvailability } = pageOffer(offers, data, scan, { lines, headingLine }, cartButtons);
  const offer = markedOffer?.price === undefined ? withPriceUnderHeading(markedOffer, lines, headingLine) : markedOffer;
  const sku = pageSku(product, offers, lines);
  const sellsSomething = product !== undefined || markedOffer?.price !== undefined || cartButtons > 0;
  const gtin = pageGtin(product, lines);
  const name = propertyText(product, 'name') ?? metaValue(data, 'og:title', 'twitter:title') ?? (textOf(heading) || undefined);
  const images = unique([...structuredImages(product, baseUrl), ...[metaValue(data, 'og:image', 'twitter:image')].map((u) => u && new URL(u, baseUrl).href), ...galleryImages(scan.galleryImages, baseUrl)]);

  const result: Product = {
    ...(name && { name }),
    ...(offer && { offers: [offer] }),
    // The address's id is the product's only on a page that sells something (articles' addresses carry ids too).
    ...optional('sku', sku ?? (sellsSomething ? addressCode(url) : undefined)),
    ...optional('mpn', manufacturerCode(propertyText(product, 'mpn') ?? labelledCode(lines, 'mpn'), sku)),
    ...(gtin && { gtin: [gtin] }),
    ...optional('brand', cleanBrand(propertyText(product, 'brand') ?? metaValue(data, 'product:brand', 'og:brand') ?? labelledCode(lines, 'brand'))),
    ...optional('breadcrumbs', structuredBreadcrumbs(data, baseUrl) ?? (scan.breadcrumbTrail && breadcrumbsIn(scan.breadcrumbTrail, baseUrl))),
    ...optional('mainImage', images[0]),
    ...(images.length && { images }),
    ...optional('description', plainText(propertyText(product, 'description') ?? metaValue(data, 'og:description', 'description'))),
    ...optional('aggregateRating', aggregateRating(product)),
    ...optional('additionalProperty', additionalProperties(product, scan.specLists)),
    probability: 0,
    url,
  };
  const signals: ProductPageSignals = {
    hasProductRecord: product !== undefined,
    productsWithOffers,
    openGraphProduct: /product/i.test(metaValue(data, 'og:type') ?? ''),
    // Articles and service pages show bare amounts under their headings too: only a price the markup or a label names is evidence of a shop.
    hasPrice: markedOffer?.price !== undefined,
    hasName: name !== undefined,
    hasIdentifier: sku !== undefined || gtin !== undefined,
    // Stated by the record or a notice: the cart buttons are a signal of their own.
    hasAvailability: statesAvailability,
    addToCartButtons: cartButtons,
    articleRecord: data.records.some((r) => r.types.some((t) => ARTICLE_TYPES.includes(t))),
    openGraphArticle: /article/i.test(metaValue(data, 'og:type') ?? ''),
    priceElements: scan.priceElements.length,
  };
  const pageFeatures = productPageFeatures(signals);
  result.probability = productProbability(pageFeatures, models.productPage);
  return { product: result, pageFeatures };
}

/** The offer with the amount under the page's heading as its price, when one is there. */
function withPriceUnderHeading(offer: Offer | undefined, lines: string[], headingLine: string): Offer | undefined {
  const price = priceUnderHeading(lines, headingLine);
  return price ? { ...offer, price: price.amount, ...(price.currency && { currency: price.currency }) } : offer;
}

function optional<K extends keyof Product>(key: K, value: Product[K] | undefined): Partial<Product> {
  return value === undefined || value === '' ? {} : ({ [key]: value } as Partial<Product>);
}

/** Price and currency from the offers, else product:price meta tags, else the page; availability likewise (the offers, product:availability meta, the page; and whether the record, meta or a notice states it). */
function pageOffer(
  offers: StructuredRecord[],
  data: StructuredData,
  scan: PageScan,
  { lines, headingLine }: { lines: string[]; headingLine: string },
  cartButtons: number,
): { offer?: Offer; statesAvailability: boolean } {
  const shown = domPrice(scan.priceElements) ?? labelledPrice(lines);
  const priced = offers.filter((o) => Number(amountFromData(offerPriceData(o))) > 0);
  // Of several offers (variants, sellers), the one whose price the page shows.
  const chosen = priced.find((o) => shown && Number(amountFromData(offerPriceData(o))) === Number(shown.amount)) ?? priced[0];
  let price: string | undefined;
  let currency: string | undefined;
  if (chosen) {
    price = amountFromData(offerPriceData(chosen));
    currency = offerCurrencyData(chosen);
    const toPay = price && shownOverRecorded(chosen, price, shown ?? priceUnderHeading(lines, headingLine), scan.priceElements);
    if (toPay) [price, currency] = [toPay.amount, toPay.currency ?? currency];
  } else {
    const metaAmount = [amountFromData(metaValue(data, 'product:price:amount', 'og:price:amount', 'product:price', 'og:price'))].find((a) => Number(a) > 0);
    price = metaAmount ?? shown?.amount;
    currency = metaAmount ? metaValue(data, 'product:price:currency', 'og:price:currency') ?? parsePrice(metaValue(data, 'og:price', 'product:price'))?.currency : shown?.currency;
  }
  // The currency as the page shows it (a symbol) beside the same amount: the shown price, else any line.
  if (price !== undefined && shown?.currency && Number(shown.amount) === Number(price)) currency = shown.currency;
  else if (price !== undefined) currency = shownCurrencyFor(price, lines) ?? currency;
  const recorded =
    (chosen ? [chosen, ...offers] : offers).map((o) => availabilityFromSchema(propertyText(o, 'availability'))).find(Boolean) ??
    availabilityFromSchema(metaValue(data, 'product:availability', 'og:availability'));
  const markedUp = recorded ?? domAvailability(scan.stockElements) ?? (cartButtons === 0 && soldOutButton(scan.buttons) ? 'OutOfStock' : undefined);
  const stated = markedUp ?? (soldOutUnderHeading(lines, headingLine) ? 'OutOfStock' : undefined);
  // An enabled add-to-cart button says the product sells: where nothing states it (most shops print no
  // notice for a product in stock), and over an OutOfStock (records go stale, notices can be about one variant or one store).
  // A disabled one still labelled so, only where nothing states it.
  const availability = cartButtons > 0 ? 'InStock' : stated ?? (disabledAddToCart(scan.buttons) ? 'InStock' : undefined);
  const offer: Offer = {
    ...(price !== undefined && { price }),
    ...(price !== undefined && currency && { currency }),
    ...(availability && { availability }),
  };
  // A page-type signal only where markup states it: articles print "Available now" under their headings too.
  return { offer: Object.keys(offer).length ? offer : undefined, statesAvailability: markedUp !== undefined };
}

// VAT rates run up to 27%: an ex-tax record's price and the shown one differ by at most that.
const MAX_TAX_FACTOR = 1.3;

/**
 * The price the page shows to pay where the offer's record states another: the record's is
 * the one the page strikes out or names the former price (a sale the record was not updated
 * for), or the record states it without VAT and the page with it.
 */
function shownOverRecorded(offer: StructuredRecord, recorded: string, shown: ParsedPrice | undefined, priceElements: readonly DomElement[]): ParsedPrice | undefined {
  const [amount, stated] = [Number(shown?.amount), Number(recorded)];
  if (!shown || !(amount > 0) || amount === stated) return undefined;
  if (amount > stated) return priceWithoutTax(offer) && amount <= stated * MAX_TAX_FACTOR ? shown : undefined;
  const former = formerPrices(priceElements);
  return former.has(stated) && !former.has(amount) ? shown : undefined;
}

/**
 * The code the page prints under a strong sku label, else the record's sku when the page
 * shows it, else a weakly labelled code, else the record's sku or product id. A sku is one
 * token: a record's "sku" with spaces is a model name.
 */
function pageSku(product: StructuredRecord | undefined, offers: StructuredRecord[], lines: string[]): string | undefined {
  const structured = [propertyText(product, 'sku'), ...offers.map((o) => propertyText(o, 'sku')), propertyText(product, 'productID'), propertyText(product, 'productId')].find(
    (code): code is string => !!code && !/\s/.test(code),
  );
  return labelledCode(lines, 'sku') ?? structured;
}

/** A "manufacturer part number" equal to the shop's own sku is the shop's code, not the maker's. */
function manufacturerCode(mpn: string | undefined, sku: string | undefined): string | undefined {
  return mpn !== undefined && mpn === sku ? undefined : mpn;
}

function pageGtin(product: StructuredRecord | undefined, lines: string[]) {
  for (const property of GTIN_PROPERTIES) {
    const gtin = toGtin(propertyText(product, property));
    if (gtin) return gtin;
  }
  return toGtin(labelledCode(lines, 'gtin'));
}
