import { DomDocument } from '../../dom';
import { StructuredData, StructuredRecord, metaValue } from '../../structured-data';
import { FeatureValues, LogisticModel, predictProbability } from '../../model/logistic';

export interface ArticleEvidence {
  article: StructuredRecord | undefined;
  data: StructuredData;
  /** Linked headlines on the page (before pruning), see linkedHeadlines. */
  teasers: number;
  url: string;
  /** The extracted body text. */
  body: string;
  /** Share of the page's text (before pruning) inside links. */
  pageLinkDensity: number;
  hasDate: boolean;
  /** The page names an author somewhere (structured data, meta tags, a byline). */
  hasAuthor: boolean;
}

/** schema.org types that name what a page is other than one article. */
const OTHER_PAGE_TYPES: Record<string, string[]> = {
  product: ['Product', 'ProductGroup', 'Offer', 'AggregateOffer'],
  listing: ['ItemList', 'CollectionPage', 'SearchResultsPage', 'OfferCatalog'],
  discussion: ['DiscussionForumPosting', 'QAPage', 'Question', 'Comment'],
  service: ['Service', 'LocalBusiness', 'Organization', 'ProfessionalService', 'FAQPage', 'Event', 'SoftwareApplication'],
};

/**
 * The signals the page-type model weighs (names are the model's features): structured data
 * or og:type saying what the page is, the body's length and shape, the address's shape, and
 * signs of a listing (linked headlines, a page mostly of links).
 */
export function articlePageFeatures(e: ArticleEvidence): FeatureValues {
  const types = new Set(e.data.records.flatMap((r) => r.types));
  const has = (names: string[]) => (names.some((t) => types.has(t)) ? 1 : 0);
  const ogType = metaValue(e.data, 'og:type') ?? '';
  const lines = e.body ? e.body.split('\n') : [];
  const sentences = e.body.match(/[.!?。](\s|$)/g)?.length ?? 0;
  const { path, slugWords, datedPath, siteRoot } = addressShape(e.url);
  return {
    articleRecord: e.article ? 1 : 0,
    ogArticle: /article/i.test(ogType) ? 1 : 0,
    ogProduct: /product/i.test(ogType) ? 1 : 0,
    productRecord: has(OTHER_PAGE_TYPES.product),
    listingRecord: has(OTHER_PAGE_TYPES.listing),
    discussionRecord: has(OTHER_PAGE_TYPES.discussion),
    serviceRecord: has(OTHER_PAGE_TYPES.service),
    bodyLogChars: Math.log1p(e.body.length),
    bodyLogLines: Math.log1p(lines.length),
    sentencesPerLine: lines.length ? Math.min(sentences / lines.length, 5) : 0,
    shortLineShare: lines.length ? lines.filter((l) => l.length < 60).length / lines.length : 0,
    logTeasers: Math.log1p(e.teasers),
    pageLinkDensity: e.pageLinkDensity,
    siteRoot: siteRoot ? 1 : 0,
    pathDepth: Math.min(path.length, 6),
    slugWords: Math.min(slugWords, 15),
    datedPath: datedPath ? 1 : 0,
    hasDate: e.hasDate ? 1 : 0,
    hasAuthor: e.hasAuthor ? 1 : 0,
  };
}

/** How sure we are the page is one article: the fitted page-type model over articlePageFeatures. */
export function articleProbability(features: FeatureValues, model: LogisticModel): number {
  return Math.round(Math.min(0.99, Math.max(0.01, predictProbability(model, features))) * 100) / 100;
}

/** Headlines that link elsewhere: a listing's teasers. */
export function linkedHeadlines(document: DomDocument): number {
  return document.querySelectorAll('h2 a[href], h3 a[href], h4 a[href], a[href] h2, a[href] h3, a[href] h4').length;
}

function addressShape(url: string): { path: string[]; slugWords: number; datedPath: boolean; siteRoot: boolean } {
  try {
    const { pathname, search } = new URL(url);
    const path = pathname.split('/').filter(Boolean);
    const last = path[path.length - 1] ?? '';
    return {
      path,
      slugWords: last.replace(/\.\w+$/, '').split(/[-_]+/).filter((w) => /[a-z]/i.test(w)).length,
      datedPath: /\/(19|20)\d{2}\/\d{1,2}\//.test(pathname) || /(19|20)\d{2}-\d{2}-\d{2}/.test(pathname),
      siteRoot: /^\/?(index\.\w+)?$/.test(pathname) && !search,
    };
  } catch {
    return { path: [], slugWords: 0, datedPath: false, siteRoot: false };
  }
}
