/**
 * What the extraction engine returns, field for field as the extraction API documents
 * them (spec/extraction-api.md "Product" and "Article"). Every field but `url` and
 * `probability` is optional: a field without a valid value is left out, never null or [].
 */

export interface Breadcrumb {
  name?: string;
  link?: string;
}

export interface Offer {
  /** A valid number with a dot as the decimal separator, e.g. "1299.00". */
  price?: string;
  /** As the site shows it ("$", "EUR", "£"); present only with a price. */
  currency?: string;
  availability?: 'InStock' | 'OutOfStock';
}

export type GtinType = 'isbn10' | 'isbn13' | 'issn' | 'ean13' | 'upc' | 'ismn' | 'gtin8' | 'gtin14';

export interface Gtin {
  type: GtinType;
  value: string;
}

export interface AggregateRating {
  ratingValue?: number;
  bestRating?: number;
  reviewCount?: number;
}

export interface Product {
  name?: string;
  offers?: Offer[];
  sku?: string;
  mpn?: string;
  gtin?: Gtin[];
  brand?: string;
  breadcrumbs?: Breadcrumb[];
  mainImage?: string;
  images?: string[];
  description?: string;
  aggregateRating?: AggregateRating;
  additionalProperty?: { name: string; value: string }[];
  /** How sure the engine is that the page is one product's page (0–1). */
  probability: number;
  url: string;
}

export interface Article {
  headline?: string;
  /** ISO 8601 with a `T` separator, with a timezone when the page gives one. */
  datePublished?: string;
  datePublishedRaw?: string;
  author?: string;
  authorsList?: string[];
  /** ISO 639-1 code. */
  inLanguage?: string;
  breadcrumbs?: Breadcrumb[];
  mainImage?: string;
  images?: string[];
  description?: string;
  /** Text with sub-headings and image captions, one block per line. */
  articleBody?: string;
  /** Cleaned HTML of the body. */
  articleBodyRaw?: string;
  videoUrls?: string[];
  audioUrls?: string[];
  /** How sure the engine is that the page is one article (0–1). */
  probability: number;
  url: string;
}

export type PageType = 'article' | 'product';

export interface ExtractOptions {
  /** Whether to build `articleBodyRaw` (the API's default is true). */
  articleBodyRaw?: boolean;
}
