import { DomDocument, normalizeSpace } from '../../dom';
import { StructuredData, StructuredRecord, metaValue, propertyValues } from '../../structured-data';

// Bylines as themes mark them; a link to an author archive (WordPress, Ghost: /author/<name>) is one too.
const BYLINE_SELECTORS = '[rel="author"], [itemprop="author"], .byline, .author, .author-name, .post-author, [class*="byline"], a[href*="/author/"]';
const MAX_NAME_CHARS = 80;

/** The article's authors' names: structured data, then meta tags, then the byline on the page. */
export function articleAuthors(article: StructuredRecord | undefined, data: StructuredData, document: DomDocument): string[] {
  const structured = propertyValues(article, 'author').flatMap((value) => {
    const name = typeof value === 'string' ? value : value.properties.name?.find((v): v is string => typeof v === 'string');
    return name ? splitNames(name) : [];
  });
  if (structured.length) return unique(structured);
  const meta = metaValue(data, 'author', 'article:author', 'parsely-author', 'sailthru.author', 'dc.creator');
  if (meta && !/^https?:/.test(meta)) return unique(splitNames(meta));
  for (const element of Array.from(document.querySelectorAll(BYLINE_SELECTORS))) {
    const names = splitNames(normalizeSpace(element.textContent));
    if (names.length) return unique(names);
  }
  return [];
}

/** "By Jane Doe and John Roe, Reuters" → names; a link or a long sentence is no name. */
export function splitNames(text: string): string[] {
  const cleaned = normalizeSpace(text).replace(/^(by|von|par|por|di|door)\s+/i, '').replace(/\s*\|.*$/, '');
  if (!cleaned || /^https?:/.test(cleaned)) return [];
  return cleaned
    // conjunctions in lower case and between spaces: "Sarah E. Needleman" is one name
    .split(/\s*[,;&]\s*|\s+(?:and|And|AND|und|et|e|y)\s+/)
    .map((name) => name.trim())
    .filter((name) => name.length > 1 && name.length <= MAX_NAME_CHARS && /\p{L}/u.test(name) && name.split(' ').length <= 5);
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}
