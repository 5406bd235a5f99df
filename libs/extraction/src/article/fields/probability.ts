import { DomDocument } from '../../dom';
import { StructuredData, StructuredRecord, metaValue } from '../../structured-data';

export interface ArticleEvidence {
  article: StructuredRecord | undefined;
  data: StructuredData;
  /** Linked headlines on the page (before pruning), see linkedHeadlines. */
  teasers: number;
  url: string;
  /** Characters of the extracted body text. */
  bodyChars: number;
}

/** Body length at which the text alone says "an article". */
const FULL_BODY_CHARS = 1000;
/** Links to other stories (headlines that are links) a listing has and an article page has few of. */
const LISTING_TEASERS = 8;

/**
 * How sure we are the page is one article: structured data or og:type saying so, a long body
 * of prose, against signs of a listing (many linked headlines, a site's root address).
 */
export function articleProbability({ article, data, teasers, url, bodyChars }: ArticleEvidence): number {
  let score = 0.15;
  if (article) score += 0.15;
  if (metaValue(data, 'og:type') === 'article') score += 0.1;
  score += 0.6 * Math.min(bodyChars / FULL_BODY_CHARS, 1);
  if (teasers >= LISTING_TEASERS) score -= Math.min(0.4, 0.02 * teasers) * (bodyChars < FULL_BODY_CHARS ? 1.5 : 0.5);
  if (isSiteRoot(url)) score -= 0.4;
  return Math.round(Math.min(0.99, Math.max(0.01, score)) * 100) / 100;
}

/** Headlines that link elsewhere: a listing's teasers. */
export function linkedHeadlines(document: DomDocument): number {
  return document.querySelectorAll('h2 a[href], h3 a[href], h4 a[href], a[href] h2, a[href] h3, a[href] h4').length;
}

function isSiteRoot(url: string): boolean {
  try {
    const { pathname, search } = new URL(url);
    return /^\/?(index\.\w+)?$/.test(pathname) && !search;
  } catch {
    return false;
  }
}
