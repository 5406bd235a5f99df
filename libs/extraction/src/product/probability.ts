import { FeatureValues, LogisticModel, predictProbability } from '../model/logistic';

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
  /** A top-level Article/NewsArticle/BlogPosting record: the page is an article (a paywall product inside is no product page). */
  articleRecord: boolean;
  /** og:type article: weaker (some themes set it on every page, shop pages included). */
  openGraphArticle: boolean;
  /** Elements that show a price, in the whole page. */
  priceElements: number;
}

/** The product-page signals as the page-type model's features (productProbability weighs them). */
export function productPageFeatures(s: ProductPageSignals): FeatureValues {
  return {
    productRecord: s.hasProductRecord ? 1 : 0,
    logProductsWithOffers: Math.log1p(s.productsWithOffers),
    severalProductsWithOffers: s.productsWithOffers > 2 ? 1 : 0,
    ogProduct: s.openGraphProduct ? 1 : 0,
    price: s.hasPrice ? 1 : 0,
    nameAndPrice: s.hasName && s.hasPrice ? 1 : 0,
    identifier: s.hasIdentifier ? 1 : 0,
    availability: s.hasAvailability ? 1 : 0,
    fewCartButtons: s.addToCartButtons >= 1 && s.addToCartButtons <= 3 ? 1 : 0,
    logCartButtons: Math.log1p(s.addToCartButtons),
    articleRecord: s.articleRecord ? 1 : 0,
    ogArticle: s.openGraphArticle ? 1 : 0,
    logPriceElements: Math.log1p(s.priceElements),
  };
}

/**
 * How likely the page is one product's page: the fitted page-type model weighs evidence of
 * one product (its record, an og:type product, one price with a name, a code, one
 * add-to-cart button) against signs of many (several product records with offers, many
 * buttons or prices) or of an article.
 */
export function productProbability(features: FeatureValues, model: LogisticModel): number {
  return Math.round(Math.max(0.01, Math.min(0.99, predictProbability(model, features))) * 100) / 100;
}
