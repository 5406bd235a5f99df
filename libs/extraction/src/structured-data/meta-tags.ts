import { DomElement, normalizeSpace } from '../dom';
import { decodeEntities } from '../dom/text';

/**
 * <meta property|name content> by lower-case key: OpenGraph, Twitter cards, product:*, description…
 * A <meta itemprop content> outside any item counts by its itemprop: some builders
 * (Squarespace) state the page's datePublished, author and headline that way in the <head>,
 * with no itemscope that would make them microdata.
 */
export function readMetaTags(elements: readonly DomElement[]): Record<string, string[]> {
  const meta: Record<string, string[]> = {};
  for (const element of elements) {
    if (element.localName !== 'meta' || !element.hasAttribute('content')) continue;
    const key = (element.getAttribute('property') ?? element.getAttribute('name') ?? itemlessProperty(element))?.trim().toLowerCase();
    const content = decodeEntities(normalizeSpace(element.getAttribute('content')));
    if (key && content) (meta[key] ??= []).push(content);
  }
  return meta;
}

/** The itemprop of an element that no itemscope encloses (else it belongs to that item, not to the page). */
function itemlessProperty(element: DomElement): string | undefined {
  const property = element.getAttribute('itemprop');
  if (!property) return undefined;
  for (let ancestor = element.parentElement; ancestor; ancestor = ancestor.parentElement) if (ancestor.hasAttribute('itemscope')) return undefined;
  return property;
}
