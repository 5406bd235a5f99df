import { DomDocument, normalizeSpace } from '../../dom';
import { StructuredData, StructuredRecord, metaValue, propertyValues } from '../../structured-data';
import { FeatureValues, LogisticModel, predictProbability } from '../../model/logistic';

// Bylines as themes mark them; a link to an author archive (WordPress, Ghost: /author/<name>) is one too.
const BYLINE_SELECTORS: [string, string][] = [
  ['relAuthor', '[rel="author"]'],
  ['itempropAuthor', '[itemprop="author"]'],
  ['bylineClass', '.byline, [class*="byline"]'],
  ['authorClass', '.author, .author-name, .post-author'],
  ['authorLink', 'a[href*="/author/"]'],
];
const META_AUTHOR = ['author', 'article:author', 'parsely-author', 'sailthru.author', 'dc.creator'];
const SOURCES = ['structuredPerson', 'structuredOrganization', 'structuredText', 'meta', ...BYLINE_SELECTORS.map(([name]) => name)];
const MAX_NAME_CHARS = 80;

/** One reading of the page's authors, with the signals the author model weighs. */
export interface AuthorCandidate {
  names: string[];
  features: FeatureValues;
}

/**
 * Every place the page names its authors: structured data (a Person, an Organization, a
 * bare name), meta tags, bylines (rel/itemprop author, byline and author classes, links to
 * an author archive). The author model weighs each by its sources, how many places agree,
 * the shape of the names, and the site's own name in it.
 */
export function authorCandidates(article: StructuredRecord | undefined, data: StructuredData, document: DomDocument): AuthorCandidate[] {
  const found: [string, string[]][] = [];
  for (const value of propertyValues(article, 'author')) {
    if (typeof value === 'string') found.push(['structuredText', splitNames(value)]);
    else {
      const name = value.properties.name?.find((v): v is string => typeof v === 'string');
      if (name) found.push([value.types.includes('Organization') || value.types.includes('NewsMediaOrganization') ? 'structuredOrganization' : 'structuredPerson', splitNames(name)]);
    }
  }
  for (const key of META_AUTHOR) {
    const meta = metaValue(data, key);
    if (meta && !/^https?:/.test(meta)) found.push(['meta', splitNames(meta)]);
  }
  for (const [source, selector] of BYLINE_SELECTORS) {
    const element = document.querySelectorAll(selector).find((e) => splitNames(normalizeSpace(e.textContent)).length);
    if (element) found.push([source, splitNames(normalizeSpace(element.textContent))]);
  }
  // A structured record's several authors are one reading.
  const merged = new Map<string, [Set<string>, string[]]>();
  const structured = found.filter(([s]) => s.startsWith('structured'));
  if (structured.length > 1) {
    const names = unique(structured.flatMap(([, n]) => n));
    found.splice(0, structured.length, [structured[0][0], names]);
  }
  for (const [source, names] of found.filter(([, n]) => n.length)) {
    const key = namesKey(names);
    const entry = merged.get(key) ?? [new Set<string>(), unique(names)];
    entry[0].add(source);
    merged.set(key, entry);
  }
  const siteName = namesKey([metaValue(data, 'og:site_name') ?? '']);
  return [...merged].map(([key, [sources, names]]) => {
    const words = names.map((n) => n.split(' ').length);
    const features: FeatureValues = Object.fromEntries(SOURCES.map((s) => [`from_${s}`, sources.has(s) ? 1 : 0]));
    features.agreement = sources.size;
    features.names = Math.min(names.length, 5);
    features.meanWords = words.reduce((a, b) => a + b, 0) / words.length;
    features.oneWord = words.every((w) => w === 1) ? 1 : 0;
    features.digits = /\d/.test(key) ? 1 : 0;
    features.isSiteName = siteName !== '' && key === siteName ? 1 : 0;
    features.capitalised = names.every((n) => n.split(' ').every((w) => /^\p{Lu}/u.test(w) || w.length <= 3)) ? 1 : 0;
    return { names, features };
  });
}

/** The candidate the author model rates highest, when it is likely enough (else no author). */
export function articleAuthors(candidates: AuthorCandidate[], model: LogisticModel): string[] {
  let best: string[] = [];
  let bestScore = 0.5;
  for (const candidate of candidates) {
    const score = predictProbability(model, candidate.features);
    if (score > bestScore) [best, bestScore] = [candidate.names, score];
  }
  return best;
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

function namesKey(names: string[]): string {
  return (names.join(' ').toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).join(' ');
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}
