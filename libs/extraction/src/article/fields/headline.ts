import { DomDocument, normalizeSpace } from '../../dom';
import { StructuredData, StructuredRecord, metaValue, propertyText } from '../../structured-data';
import { FeatureValues, LogisticModel, predictProbability } from '../../model/logistic';

/** Where a headline candidate comes from (each is a feature of the headline model). */
const SOURCES = ['structuredHeadline', 'structuredName', 'ogTitle', 'twitterTitle', 'h1', 'laterH1', 'ogTitleCut', 'titleCut', 'title'] as const;
type Source = (typeof SOURCES)[number];

export interface HeadlineCandidate {
  text: string;
  features: FeatureValues;
}

// " | Site", " - Site", " — Site", " · Site" at the end of a title; ": Site" is too often part of the headline.
const SITE_TAIL = /\s+[|–—·-]\s+[^|–—·]+$/;
const SEPARATOR = /\s[|–—·-]\s/;

/**
 * Every place the page states its headline (structured data, og/twitter titles, the <h1>,
 * the <title> with and without its " | Site" tail), each with the signals the headline model
 * weighs: its source, how many other places agree, its length, a separator or the site's
 * name left in it.
 */
export function headlineCandidates(article: StructuredRecord | undefined, data: StructuredData, document: DomDocument): HeadlineCandidate[] {
  const og = metaValue(data, 'og:title');
  const h1s = document.querySelectorAll('h1');
  const title = document.title;
  const found: [Source, string | undefined][] = [
    ['structuredHeadline', propertyText(article, 'headline')],
    ['structuredName', propertyText(article, 'name')],
    ['ogTitle', og],
    ['twitterTitle', metaValue(data, 'twitter:title')],
    // The first <h1>, and the next two (when the first is the site's logo, the article's comes later).
    ...h1s.slice(0, 3).map((h1, i): [Source, string | undefined] => [i === 0 ? 'h1' : 'laterH1', h1.textContent ?? undefined]),
    ['ogTitleCut', og?.replace(SITE_TAIL, '')],
    ['titleCut', title.replace(SITE_TAIL, '')],
    ['title', title],
  ];
  const texts = found.map(([source, text]) => [source, normalizeSpace(text)] as const).filter(([, text]) => text);
  const keys = texts.map(([, text]) => headlineKey(text));
  const siteName = headlineKey(metaValue(data, 'og:site_name') ?? '');
  const h1Count = Math.min(h1s.length, 3);
  const titleWords = new Set(`${headlineKey(title)} ${headlineKey(og ?? '')}`.split(' ').filter(Boolean));
  const seen = new Set<string>();
  const candidates: HeadlineCandidate[] = [];
  texts.forEach(([source, text], i) => {
    const features: FeatureValues = Object.fromEntries(SOURCES.map((s) => [`from_${s}`, 0]));
    // The same text from several places is one candidate with each of its sources.
    texts.forEach(([other], j) => {
      if (keys[j] === keys[i]) features[`from_${other}`] = 1;
    });
    if (seen.has(keys[i])) return;
    seen.add(keys[i]);
    const words = keys[i].split(' ').length;
    features.agreement = keys.filter((k) => k === keys[i]).length;
    features.logWords = Math.log1p(words);
    features.fewWords = words <= 2 ? 1 : 0;
    features.separator = SEPARATOR.test(text) ? 1 : 0;
    features.namesSite = siteName && keys[i].includes(siteName) ? 1 : 0;
    features.isSiteName = siteName && keys[i] === siteName ? 1 : 0;
    features.h1Count = h1Count;
    features.insideTitle = keys[i] !== headlineKey(title) && headlineKey(title).includes(keys[i]) ? 1 : 0;
    // The <h1> that shares most of its words with the page's titles is the article's (not the site's logo, a section's name, a teaser).
    features.h1TitleOverlap = features.from_h1 || features.from_laterH1 ? overlap(keys[i], titleWords) : 0;
    candidates.push({ text, features });
  });
  return candidates;
}

/** The candidate the headline model rates highest. */
export function articleHeadline(candidates: HeadlineCandidate[], model: LogisticModel): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const candidate of candidates) {
    const score = predictProbability(model, candidate.features);
    if (score > bestScore) [best, bestScore] = [candidate.text, score];
  }
  return best;
}

/** The share of a text's words that are among these words. */
function overlap(key: string, words: ReadonlySet<string>): number {
  const own = key.split(' ');
  return own.filter((w) => words.has(w)).length / own.length;
}

function headlineKey(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).join(' ');
}
