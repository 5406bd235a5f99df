import { DomDocument, DomElement, hasClassWord, layoutText, normalizeSpace, resolveUrl } from '../../dom';
import { StructuredData, StructuredRecord, metaValue, propertyText } from '../../structured-data';
import { FeatureValues, LogisticModel, predictProbability } from '../../model/logistic';

/** Where a headline candidate comes from (each is a feature of the headline model). */
const SOURCES = ['structuredHeadline', 'structuredName', 'ogTitle', 'twitterTitle', 'h1', 'laterH1', 'h1Cut', 'ogTitleCut', 'titleCut', 'title', 'firstPart'] as const;
type Source = (typeof SOURCES)[number];

export interface HeadlineCandidate {
  text: string;
  features: FeatureValues;
}

// " | Site", " - Site", " — Site", " · Site", " • Site", " » Site" at the end of a title; ": Site" is too often part of the headline.
const SITE_TAIL = /\s+[|–—·•»-]\s+[^|–—·•»]+$/;
const SEPARATOR = /\s[|–—·•»-]\s/;
// Everything from a title's first separator on: a subtitle or a section's name ("Post | Top 19 Companies", "Post – Part 1").
const FROM_FIRST_SEPARATOR = /\s+[|–—·•»-]\s.*$/;
// What may stand between a title and the site's name when the name is known: "Blog: Post", "site.com Post", "Post | Blog".
const NAME_SEPARATOR = '[\\s|–—·•»:-]';
// Class or id words of a heading styled as the page's title ("entry-title", "post-headline", "mainHeading").
const TITLE_CLASS_WORDS = new Set(['title', 'headline', 'heading']);

/**
 * Every place the page states its headline (structured data, og/twitter titles, the <h1>,
 * the <title> with and without its " | Site" tail), each with the signals the headline model
 * weighs: its source, how many other places agree, its length, a separator or the site's
 * name left in it.
 */
export function headlineCandidates(article: StructuredRecord | undefined, data: StructuredData, document: DomDocument, baseUrl: string): HeadlineCandidate[] {
  const og = metaValue(data, 'og:title');
  // The first <h1>, and the next two (when the first is the site's logo, the article's comes later).
  const h1s = document.querySelectorAll('h1').slice(0, 3);
  const h1Texts = h1s.map(headingText);
  const homeTexts = h1Texts.filter((_, i) => linksHome(h1s[i], baseUrl));
  const title = document.title;
  // The site's names: a title starting or ending with one of them is cut there ("Blog: Post", "site.com Post").
  const siteNames = [metaValue(data, 'og:site_name'), ...homeTexts, hostName(baseUrl)];
  const h1Cut = h1Texts[0] && withoutSiteName(h1Texts[0], siteNames, 'heading');
  const ogCut = og && withoutSiteName(og, siteNames);
  const titleCut = withoutSiteName(title, siteNames);
  const found: [Source, string | undefined][] = [
    ['structuredHeadline', propertyText(article, 'headline')],
    ['structuredName', propertyText(article, 'name')],
    ['ogTitle', og],
    ['twitterTitle', metaValue(data, 'twitter:title')],
    ...h1Texts.map((text, i): [Source, string | undefined] => [i === 0 ? 'h1' : 'laterH1', text]),
    // An <h1> that repeats the <title>, tail and all ("Post | Opinion", "Post – Site"); only its
    // end is cut: a heading often starts with the brand it is about ("Docker Hardened Images").
    ['h1Cut', h1Cut !== h1Texts[0] ? h1Cut : undefined],
    ['ogTitleCut', ogCut],
    ['titleCut', titleCut],
    ['title', title],
    // The part before the first separator of the <h1> and of the cut titles, when a subtitle follows the headline there.
    ...[h1Texts[0], ogCut, titleCut].map((text): [Source, string | undefined] => ['firstPart', text && firstPart(text)]),
  ];
  const texts = found.map(([source, text]) => [source, normalizeSpace(text)] as const).filter(([, text]) => text);
  const keys = texts.map(([, text]) => headlineKey(text));
  const homeKeys = new Set(homeTexts.map(headlineKey));
  const titleClassKeys = new Set(h1Texts.filter((_, i) => hasClassWord(h1s[i], TITLE_CLASS_WORDS)).map(headlineKey));
  const siteName = headlineKey(metaValue(data, 'og:site_name') ?? '');
  const h1Count = Math.min(h1s.length, 3);
  const titleWords = new Set(`${headlineKey(title)} ${headlineKey(og ?? '')}`.split(' ').filter(Boolean));
  const slugWords = new Set(headlineKey(pathOf(baseUrl)).split(' ').filter((w) => w.length > 2 && !/^\d+$/.test(w)));
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
    // A bar is the site's or a section's separator; a dash also joins a headline's own parts.
    features.bar = /\s\|\s/.test(text) ? 1 : 0;
    features.namesSite = siteName && keys[i].includes(siteName) ? 1 : 0;
    features.isSiteName = siteName && keys[i] === siteName ? 1 : 0;
    features.h1Count = h1Count;
    features.insideTitle = keys[i] !== headlineKey(title) && headlineKey(title).includes(keys[i]) ? 1 : 0;
    // The <h1> that shares most of its words with the page's titles is the article's (not the site's logo, a section's name, a teaser).
    features.h1TitleOverlap = features.from_h1 || features.from_laterH1 ? overlap(keys[i], titleWords) : 0;
    // An <h1> that links to the site's home page is its logo or name, not the article's title.
    features.linksHome = homeKeys.has(keys[i]) ? 1 : 0;
    features.titleClass = titleClassKeys.has(keys[i]) ? 1 : 0;
    // A post's address is usually made from its first headline ("/top-10-health-trends/").
    features.slugShare = slugWords.size ? [...slugWords].filter((w) => keys[i].split(' ').includes(w)).length / slugWords.size : 0;
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

/**
 * The title without the site's name at its start or end (again while one is left there: "Post
 * – Site - Site"), or without a " | Site" tail when no known name is there. A heading loses only
 * a known name at its end: it often starts with the brand it is about ("Docker Hardened
 * Images"), and its tails ("– My Favorites!") are mostly its own.
 */
function withoutSiteName(title: string, names: (string | undefined)[], kind: 'title' | 'heading' = 'title'): string {
  let cut = title;
  for (let shorter = withoutNameOnce(cut, names, kind); shorter !== undefined; shorter = withoutNameOnce(cut, names, kind)) cut = shorter;
  return cut !== title || kind === 'heading' ? cut : title.replace(SITE_TAIL, '');
}

/** The text without one of the names at its start (a title only) or end, when more than one word is left. */
function withoutNameOnce(text: string, names: (string | undefined)[], kind: 'title' | 'heading'): string | undefined {
  for (const name of names) {
    const escaped = normalizeSpace(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (!escaped) continue;
    const cut = (kind === 'title' ? text.replace(new RegExp(`^\\s*${escaped}${NAME_SEPARATOR}+`, 'iu'), '') : text)
      .replace(new RegExp(`${NAME_SEPARATOR}+${escaped}\\s*$`, 'iu'), '');
    // A title that is only the name stays whole; one word left is too little to be a headline cut.
    if (cut !== text && headlineKey(cut).includes(' ')) return cut;
  }
  return undefined;
}

/**
 * A heading's words: a <br> or a block inside it separates them ("2025 (US)<br>Your Guide"),
 * inline markup does not; a <time> in it ("<time>Dec 18 2025</time> Post") is not the title.
 */
function headingText(heading: DomElement): string {
  let text = normalizeSpace(layoutText(heading, ''));
  for (const time of heading.querySelectorAll('time')) text = text.replace(normalizeSpace(layoutText(time, '')), '');
  return normalizeSpace(text);
}

/** The text before its first separator, when that leaves more than one word (else nothing). */
function firstPart(text: string): string | undefined {
  const head = text.replace(FROM_FIRST_SEPARATOR, '');
  return head !== text && headlineKey(head).includes(' ') ? head : undefined;
}

/** Whether the heading is, holds or sits inside a link to the site's home page. */
function linksHome(heading: DomElement, baseUrl: string): boolean {
  const links = [heading.closest('a'), ...heading.querySelectorAll('a')];
  return links.some((link) => {
    const href = resolveUrl(link?.getAttribute('href'), baseUrl);
    if (!href) return false;
    const url = new URL(href);
    return url.pathname === '/' && !url.search && hostName(href) === hostName(baseUrl);
  });
}

function pathOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname);
  } catch {
    return '';
  }
}

/** The address's host without a leading "www.". */
function hostName(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** The share of a text's words that are among these words. */
function overlap(key: string, words: ReadonlySet<string>): number {
  const own = key.split(' ');
  return own.filter((w) => words.has(w)).length / own.length;
}

function headlineKey(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).join(' ');
}
