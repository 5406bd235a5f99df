import { DomDocument, normalizeSpace } from '../../dom';
import { StructuredData, StructuredRecord, metaValue, propertyText } from '../../structured-data';

/** Structured headline, og:title, the page's <h1>, or the <title> without its " | Site" tail. */
export function articleHeadline(article: StructuredRecord | undefined, data: StructuredData, document: DomDocument): string | undefined {
  const candidates = [
    propertyText(article, 'headline'),
    propertyText(article, 'name'),
    metaValue(data, 'og:title', 'twitter:title'),
    document.querySelector('h1')?.textContent,
    document.title.replace(/\s+[|–—-]\s+[^|–—-]+$/, ''),
  ];
  for (const candidate of candidates) {
    const text = normalizeSpace(candidate);
    if (text) return text;
  }
  return undefined;
}
