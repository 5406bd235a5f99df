import { DomElement, normalizeSpace } from '../dom';
import { decodeEntities } from '../dom/text';

/** <meta property|name content> by lower-case key: OpenGraph, Twitter cards, product:*, description… */
export function readMetaTags(elements: readonly DomElement[]): Record<string, string[]> {
  const meta: Record<string, string[]> = {};
  for (const element of elements) {
    if (element.localName !== 'meta' || !element.hasAttribute('content')) continue;
    const key = (element.getAttribute('property') ?? element.getAttribute('name'))?.trim().toLowerCase();
    const content = decodeEntities(normalizeSpace(element.getAttribute('content')));
    if (key && content) (meta[key] ??= []).push(content);
  }
  return meta;
}
