/** "http://schema.org/Product", "https://schema.org/Product", "schema:price" → "Product", "price". */
export function localName(term: string): string {
  const trimmed = term.trim();
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('#'), trimmed.lastIndexOf(':'));
  return cut >= 0 ? trimmed.slice(cut + 1) : trimmed;
}

/** Space-separated terms of an attribute such as itemtype, typeof or itemprop, prefixes dropped. */
export function localNames(attribute: string | null | undefined): string[] {
  if (!attribute) return [];
  return attribute.split(/\s+/).filter(Boolean).map(localName).filter(Boolean);
}

/** A type's local name with the capital schema.org gives it ("product" → "Product"): pages vary the case. */
export function typeNames(attribute: string | null | undefined): string[] {
  return localNames(attribute).map((name) => name[0].toUpperCase() + name.slice(1));
}
