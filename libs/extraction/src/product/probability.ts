/** What the page shows of one product versus many. */
export interface ProductPageSignals {
  /** A structured Product record (JSON-LD, microdata or RDFa) is present. */
  hasProductRecord: boolean;
  /** Product records carrying an offer: one on a product page, many on a listing. */
  productsWithOffers: number;
  /** og:type is "product" (or "og:product"). */
  openGraphProduct: boolean;
  hasPrice: boolean;
  hasName: boolean;
  hasIdentifier: boolean;
  hasAvailability: boolean;
  addToCartButtons: number;
  /** Elements that show a price, in the whole page. */
  priceElements: number;
}

/**
 * How likely the page is one product's page. Evidence of one product (its record, an
 * og:type product, one price with a name, a code, one add-to-cart button) adds up; signs of
 * many (several product records with offers, many buttons or prices) take it down.
 */
export function productProbability(s: ProductPageSignals): number {
  let evidence = 0;
  if (s.hasProductRecord) evidence += 0.35;
  if (s.openGraphProduct) evidence += 0.2;
  if (s.hasPrice) evidence += 0.2;
  if (s.hasName && s.hasPrice) evidence += 0.1;
  if (s.hasIdentifier) evidence += 0.15;
  if (s.hasAvailability) evidence += 0.1;
  if (s.addToCartButtons >= 1 && s.addToCartButtons <= 3) evidence += 0.2;

  let listing = 0;
  if (s.productsWithOffers > 2) listing += Math.min(0.6, 0.15 * (s.productsWithOffers - 2));
  if (s.addToCartButtons > 4) listing += 0.4;
  if (s.priceElements > 40) listing += 0.2;
  return round(clamp(evidence - listing));
}

function clamp(value: number): number {
  return Math.max(0.01, Math.min(0.99, value));
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
