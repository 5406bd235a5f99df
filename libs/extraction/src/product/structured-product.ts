import { findRecords, propertyRecords, propertyText, StructuredData, StructuredRecord } from '../structured-data';

export const PRODUCT_TYPES = ['Product', 'ProductGroup', 'IndividualProduct', 'ProductModel', 'SomeProducts', 'Vehicle', 'Car', 'Book', 'Drug'];
const OFFER_TYPES = ['Offer', 'AggregateOffer'];

export interface ProductRecords {
  /** The page's own product: the most complete product record (related products are sparser). */
  product?: StructuredRecord;
  /** Its offers, those of its variants, or the page's stray offers when no product holds any. */
  offers: StructuredRecord[];
  /** How many product records carry an offer: many of them make a listing. */
  productsWithOffers: number;
}

export function productRecords(data: StructuredData): ProductRecords {
  const products = findRecords(data, PRODUCT_TYPES);
  const productsWithOffers = products.filter((p) => offersOf(p).length).length;
  let product: StructuredRecord | undefined;
  let bestScore = -1;
  for (const candidate of products) {
    const score = completeness(candidate);
    if (score > bestScore) [product, bestScore] = [candidate, score];
  }
  const own = product ? offersOf(product) : [];
  const offers = own.length ? own : strayOffers(data);
  return { product, offers, productsWithOffers };
}

function completeness(product: StructuredRecord): number {
  const fields = ['name', 'sku', 'image', 'description', 'brand', 'gtin13', 'mpn', 'aggregateRating'].filter((f) => product.properties[f]).length;
  return fields + (offersOf(product).length ? 3 : 0);
}

/** Offers of a product: its own (AggregateOffer's inner offers after it), else its variants'. */
function offersOf(product: StructuredRecord): StructuredRecord[] {
  const own = propertyRecords(product, 'offers').flatMap((offer) => [offer, ...propertyRecords(offer, 'offers')]);
  if (own.length) return own;
  return propertyRecords(product, 'hasVariant').flatMap((variant) => propertyRecords(variant, 'offers'));
}

/** Offers that hang off no product (some pages put the product's fields beside a bare Offer). */
function strayOffers(data: StructuredData): StructuredRecord[] {
  const insideProducts = new Set(findRecords(data, PRODUCT_TYPES).flatMap(offersOf));
  return findRecords(data, OFFER_TYPES).filter((offer) => !insideProducts.has(offer));
}

// PriceSpecification types of a price that is not the one to pay: the struck-out or suggested price shown beside it.
const NOT_PAYABLE_PRICE_TYPE = /(?:ListPrice|StrikethroughPrice|MSRP|SRP|InvoicePrice|MinimumAdvertisedPrice)$/i;

/** The offer's price specifications of the price to pay (schema.org priceType: not a ListPrice or StrikethroughPrice). */
function payableSpecifications(offer: StructuredRecord): StructuredRecord[] {
  return propertyRecords(offer, 'priceSpecification').filter((spec) => !NOT_PAYABLE_PRICE_TYPE.test(propertyText(spec, 'priceType') ?? ''));
}

/** An offer's price as data: price, its payable PriceSpecification's, or an AggregateOffer's lowPrice. */
export function offerPriceData(offer: StructuredRecord): string | undefined {
  return propertyText(offer, 'price') ?? payableSpecifications(offer).map((spec) => propertyText(spec, 'price')).find(Boolean) ?? propertyText(offer, 'lowPrice');
}

export function offerCurrencyData(offer: StructuredRecord): string | undefined {
  return propertyText(offer, 'priceCurrency') ?? payableSpecifications(offer).map((spec) => propertyText(spec, 'priceCurrency')).find(Boolean);
}

/** Whether the offer states its price without VAT (schema.org valueAddedTaxIncluded false: WooCommerce's ex-tax prices); the page shows it with. */
export function priceWithoutTax(offer: StructuredRecord): boolean {
  return [offer, ...payableSpecifications(offer)].some((record) => /^false$/i.test(propertyText(record, 'valueAddedTaxIncluded') ?? ''));
}
