/**
 * Structured data of a page, whatever syntax carried it, in one shape: records with
 * types and multi-valued properties. Types and property names lose their vocabulary
 * prefix ("http://schema.org/Product", "schema:price" → "Product", "price").
 */
export type StructuredValue = string | StructuredRecord;

export interface StructuredRecord {
  /** e.g. ["Product"]; empty when the item names no type. */
  types: string[];
  properties: Record<string, StructuredValue[]>;
  source: 'json-ld' | 'microdata' | 'rdfa';
}

export interface StructuredData {
  /** Top-level records in document order: JSON-LD first, then microdata, then RDFa. */
  records: StructuredRecord[];
  /** <meta> tags by lower-case property or name (og:title, twitter:image, description, product:price:amount …). */
  meta: Record<string, string[]>;
}
