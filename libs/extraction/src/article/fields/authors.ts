import { DomDocument, DomElement, classWords, normalizeSpace, shortTextOf, textsAfter } from '../../dom';
import { StructuredData, StructuredRecord, StructuredValue, metaValue, propertyValues } from '../../structured-data';
import { FeatureValues, LogisticModel, predictProbability } from '../../model/logistic';
import { toIsoDate } from './published-date';

// A link to an author archive (WordPress, Ghost: /author/<name>; headless CMSs, Webflow: /authors/<name>).
const AUTHOR_ARCHIVE_LINK = 'a[href*="/author/"], a[href*="/authors/"]';
// Bylines as themes mark them; an author archive link is one too.
const BYLINE_SELECTORS: [string, string][] = [
  ['relAuthor', '[rel="author"]'],
  ['itempropAuthor', '[itemprop="author"]'],
  ['bylineClass', '.byline, [class*="byline"]'],
  ['authorClass', '.author, .author-name, .post-author'],
  ['authorLink', AUTHOR_ARCHIVE_LINK],
];
const META_AUTHOR = ['author', 'article:author', 'og:author', 'parsely-author', 'sailthru.author', 'cxenseparse:author', 'dc.creator', 'dcterms.creator'];
// Scholarly pages (Highwire / Google Scholar tags) give one tag per author, in the paper's order: all of them are the byline.
const META_EVERY_AUTHOR = ['citation_author', 'dc.creator'];
const SOURCES = ['structuredPerson', 'structuredOrganization', 'structuredText', 'meta', 'writtenByLabel', ...BYLINE_SELECTORS.map(([name]) => name), 'authorWordClass', 'furnitureAuthor', 'authorImageAlt', 'bylineText', 'datedName', 'labelledByline'];
// A byline's label, alone ("Written by" / "Author:" then the name) or before the name ("By Jane Doe"), in en/de/fr/es/it/pt/nl.
const BYLINE_LABEL = /^(?:(?:written|posted|published|reviewed|authored|words|text|article|story)\s+by|by|(?:the\s+)?authors?|author\(s\)|contributors?|von|par|por|di|door|autor|auteur|autore)\s*:?$/i;
// A bare "Author" prefixes a name only with its colon ("Authors: Jane Doe and John Roe"), not in "Authors Guild".
const BYLINE_PREFIX = /^(?:(?:written|posted|published|authored|words|text|article|story)\s+by|by|von|par|por|di|door|authors?\s*:|contributors?\s*:)\s*:?\s+/i;
// How far past the <h1> a byline counts as under it, and how far a labelled one ("Written by", an author box at the foot) is looked for (text nodes).
const TEXTS_AFTER_HEADLINE = 40;
const TEXTS_TO_LABELLED_BYLINE = 1500;
// An author's photo described for screen readers: "A headshot of Jane Doe", "Author Jane Doe", "Jane Doe's profile picture".
const PHOTO = '(?:head ?shot|photo(?:graph)?|picture|pic|image|portrait|avatar|profile(?: (?:pic|picture|photo|image))?)';
const PHOTO_WORDS = new RegExp(`^(?:(?:an?\\s+)?${PHOTO}\\s+of\\s+|author\\s+)|(?:[’']s)?\\s+${PHOTO}$`, 'gi');
// The labels of an author box at an article's foot: "Written by", "Article by", "Author:".
const AUTHOR_BOX_LABEL = /^(?:(?:written|article|words|story)\s+by|(?:about\s+the\s+)?authors?)\s*:?$/i;
const SECTION_HEADING = /\b(?:posts?|articles?|comments?|categor(?:y|ies)|tags|related|recent)\b/i;
const AUTHOR_BOX_PREFIX = /^(?:written|article|words|story)\s+by\s*:?\s+/i;
const MAX_NAME_CHARS = 80;
// A byline of several linked writers: how far up from the first link, and how long its text may be.
const CO_AUTHOR_LEVELS = 3;
const MAX_BYLINE_CHARS = 200;

/** One reading of the page's authors, with the signals the author model weighs. */
export interface AuthorCandidate {
  names: string[];
  /** The names as the page writes them when one place gives them all ("Jane Doe and John Roe"), else joined with ", ". */
  text: string;
  features: FeatureValues;
}

/**
 * Every place the page names its authors: structured data (a Person, an Organization, a
 * bare name), meta tags, bylines (rel/itemprop author, byline and author classes, links to
 * an author archive). The author model weighs each by its sources, how many places agree,
 * the shape of the names, and the site's own name in it.
 */
export function authorCandidates(article: StructuredRecord | undefined, data: StructuredData, document: DomDocument, url = ''): AuthorCandidate[] {
  const found: [string, string[], string][] = [];
  const add = (source: string, text: string) => found.push([source, splitNames(text), text]);
  for (const value of propertyValues(article, 'author')) {
    const person = typeof value === 'string' ? value : withName(value, data);
    if (typeof person === 'string') add('structuredText', person);
    else {
      const name = person.properties.name?.find((v): v is string => typeof v === 'string');
      if (name) add(person.types.includes('Organization') || person.types.includes('NewsMediaOrganization') ? 'structuredOrganization' : 'structuredPerson', name);
    }
  }
  for (const key of META_AUTHOR) {
    const meta = metaValue(data, key);
    if (meta && !/^https?:/.test(meta)) add('meta', meta);
  }
  for (const key of META_EVERY_AUTHOR) {
    const every = data.meta[key] ?? [];
    if (every.length) add('meta', every.join('; '));
  }
  // WordPress' SEO plugins label the author for link previews: twitter:label1 "Written by", twitter:data1 the name.
  for (const n of [1, 2]) if (/^written by$/i.test(metaValue(data, `twitter:label${n}`) ?? '')) add('writtenByLabel', metaValue(data, `twitter:data${n}`) ?? '');
  for (const [source, selector] of BYLINE_SELECTORS) {
    const element = document.querySelectorAll(selector).find((e) => splitNames(normalizeSpace(e.textContent)).length);
    if (element) add(source, source === 'authorLink' ? coAuthorLinks(element) : normalizeSpace(element.textContent));
  }
  const authorElements = document.querySelectorAll('[class*=author i]');
  const named = nameOfAuthorClass(authorElements);
  if (named) add('authorWordClass', named);
  // The same, from an <aside>, <footer> or <header> that the lean html dropped (a side column's author card).
  const furnitureAuthor = document.querySelector(`meta[${FURNITURE_AUTHOR}]`)?.getAttribute('content');
  if (furnitureAuthor) add('furnitureAuthor', furnitureAuthor);
  // An author box's photo whose alternative text is the name (the box's own text a bio, too long for a name).
  const photoName = authorPhotoInside(authorElements);
  if (photoName) add('authorImageAlt', photoName);
  const byline = bylineAfterHeadline(document);
  if (byline) add(byline.source, byline.text);
  // A bare name beside the date is a reading of its own only where no other place names anyone:
  // as a second place it adds little, and it would make the places that stand alone look weaker.
  if (!found.some(([, names]) => names.length)) {
    const h1 = document.querySelector('h1');
    const dated = h1 && datedName(textsAfter(h1, DATED_BYLINE_TEXTS));
    if (dated) add('datedName', dated);
  }
  // A structured record's several authors are one reading.
  const merged = new Map<string, [Set<string>, string[], string | undefined]>();
  const structured = found.filter(([s]) => s.startsWith('structured'));
  if (structured.length > 1) {
    const names = unique(structured.flatMap(([, n]) => n));
    found.splice(0, structured.length, [structured[0][0], names, '']);
  }
  for (const [source, names, text] of found.filter(([, n]) => n.length)) {
    const key = namesKey(names);
    const entry = merged.get(key) ?? [new Set<string>(), unique(names), undefined];
    entry[0].add(source);
    entry[2] ??= asWritten(text, key);
    merged.set(key, entry);
  }
  const siteName = namesKey([metaValue(data, 'og:site_name') ?? '']);
  const host = hostLabels(url);
  const readings = [...merged].map(([, [, names]]) => new Set(names.map((n) => n.toLowerCase())));
  return [...merged].map(([key, [sources, names, written]], index) => {
    const words = names.map((n) => n.split(' ').length);
    const features: FeatureValues = Object.fromEntries(SOURCES.map((s) => [`from_${s}`, sources.has(s) ? 1 : 0]));
    features.agreement = sources.size;
    features.names = Math.min(names.length, 5);
    features.meanWords = words.reduce((a, b) => a + b, 0) / words.length;
    features.oneWord = words.every((w) => w === 1) ? 1 : 0;
    features.digits = /\d/.test(key) ? 1 : 0;
    features.isSiteName = siteName !== '' && key === siteName ? 1 : 0;
    features.inHost = namesHost(key, host) ? 1 : 0;
    // The first of a byline's names alone (a byline's first link), where another place names them all.
    features.partOfAnother = readings.some((other, i) => i !== index && other.size > names.length && names.every((n) => other.has(n.toLowerCase()))) ? 1 : 0;
    // An account's handle ("levinemusic", "brandon-peaktwo"), not a person's name as a byline writes it.
    features.lowercase = names.every((n) => n === n.toLowerCase()) ? 1 : 0;
    features.capitalised = names.every((n) => n.split(' ').every((w) => /^\p{Lu}/u.test(w) || w.length <= 3)) ? 1 : 0;
    return { names, text: written ?? names.join(', '), features };
  });
}

/**
 * The first byline a reader sees after the <h1>: "By Jane Doe", or a "Written by" label and the
 * name after it; under the headline when within its first texts, else further down (an author
 * box at the article's foot: "Written by Jane Doe").
 */
function bylineAfterHeadline(document: DomDocument): { text: string; source: 'bylineText' | 'labelledByline' } | undefined {
  const h1 = document.querySelector('h1');
  if (!h1) return undefined;
  const after = textsAfter(h1, TEXTS_AFTER_HEADLINE);
  const near = firstByline(after, () => true) ?? datedByline(after.slice(0, DATED_BYLINE_TEXTS));
  if (near) return { text: near, source: 'bylineText' };
  // Most pages have their byline near: the long walk only for the others.
  const far = firstByline(textsAfter(h1, TEXTS_TO_LABELLED_BYLINE).slice(TEXTS_AFTER_HEADLINE), isAuthorBoxByline);
  return far ? { text: far, source: 'labelledByline' } : undefined;
}

function firstByline(texts: [string, string][], accept: (text: string, previous: string, names: string[]) => boolean): string | undefined {
  for (const [text, previous] of texts) {
    if (text.length > MAX_NAME_CHARS) continue;
    const rest = text.replace(BYLINE_PREFIX, '');
    // "By Jane Doe", not "By the time we arrived": the name after the label is capitalised.
    const byline = BYLINE_LABEL.test(previous) ? text : rest !== text && /^\p{Lu}/u.test(rest) ? rest : '';
    const names = splitNames(byline);
    if (names.length && accept(text, previous, names)) return byline;
  }
  return undefined;
}

/**
 * A byline that links each of its writers ("By <a>Jane Doe</a>, <a>John Roe</a>, and <a>Ann Poe</a>",
 * each link in its own wrapper): the names of the author links beside the first, within a few
 * levels of it and a byline's length; else the first link's text alone.
 */
function coAuthorLinks(first: DomElement): string {
  let holder = first.parentElement;
  for (let level = 0; holder && level < CO_AUTHOR_LEVELS; level++, holder = holder.parentElement) {
    if (normalizeSpace(holder.textContent).length > MAX_BYLINE_CHARS) break;
    const names = unique(holder.querySelectorAll(AUTHOR_ARCHIVE_LINK).map((e) => normalizeSpace(e.textContent)).filter((t) => splitNames(t).length));
    if (names.length > 1) return names.join(', ');
  }
  return normalizeSpace(first.textContent);
}

/**
 * A byline without a "By", its name beside the date in one line under the headline ("Aaron
 * Ricadela | Senior Writer | July 2, 2025", "Dec. 19, 2025 · Niko Matsakis"): the part written
 * as a name, when another part is a date.
 */
function datedByline(texts: [string, string][]): string | undefined {
  for (const [text] of texts) {
    const parts = text.split(/\s+[|·•]\s+/);
    if (parts.length < 2 || text.length > MAX_NAME_CHARS || !parts.some((part) => toIsoDate(part))) continue;
    const name = parts.find((part) => looksLikeName(part) && !toIsoDate(part));
    if (name) return name;
  }
  return undefined;
}

/**
 * A name in a text of its own next to the date's under the headline, a lone separator between
 * them ("Elliot Raba", "23.07.2025"; "2025-12-17", "·", "Trond Teigen"), with the " in" of a
 * category link after it left out ("Mahua Das in" <a>Project Management</a>).
 */
function datedName(texts: [string, string][]): string | undefined {
  const shown = texts.map(([text]) => text).filter((text) => !LONE_SEPARATOR.test(text));
  const isDate = (text: string | undefined) => text !== undefined && text.length <= MAX_NAME_CHARS && !!toIsoDate(text);
  // Written as a person's name, first and last word alike ("Posted on", "HR Strategy" are a label and a category), and no job title.
  const isName = (text: string | undefined) => text !== undefined && looksLikeName(text) && /^\p{Lu}\p{Ll}/u.test(text) && /\s\p{Lu}[\p{Ll}.'’-]*$/u.test(text) && !ROLE_WORD.test(text);
  // The name's own text before the date; after it only when the date opens the byline (further on, a category or a button follows the date).
  const before = shown.findIndex((text, i) => isName(text) && isDate(shown[i + 1]));
  if (before >= 0) return shown[before];
  const after = shown[1]?.replace(/\s+in$/, '');
  return isDate(shown[0]) && isName(after) ? after : undefined;
}
const LONE_SEPARATOR = /^[|·•—–-]$/;
// A job title is no name ("Marketing Director" between the writer and the date).
const ROLE_WORD = /\b(?:director|manager|editor|writer|reporter|correspondent|contributor|columnist|journalist|officer|expert|specialist|consultant|founder|president|lead|head)s?$/i;
const DATED_BYLINE_TEXTS = 5;

/**
 * Far below the headline a bare "By" starts quotes, comments and related posts: only an
 * author's label counts there ("Written by", "Author:"), before names written as names.
 */
function isAuthorBoxByline(text: string, previous: string, names: string[]): boolean {
  return (AUTHOR_BOX_LABEL.test(previous) || AUTHOR_BOX_PREFIX.test(text)) && names.every(looksLikeName);
}

/** "Jane Doe", "Sérgio Schüler", "Ludwig van Beethoven": two to four words, capitalised but for short particles; not a section's heading ("Recent Posts"). */
function looksLikeName(name: string): boolean {
  const words = name.split(' ');
  return words.length >= 2 && words.length <= 4 && /^\p{Lu}/u.test(words[0]) && words.every((w) => /^\p{Lu}[\p{L}.'’-]*$/u.test(w) || /^\p{Ll}{1,3}$/u.test(w)) && !SECTION_HEADING.test(name);
}

/** The attribute of the mark that the lean html leaves for an author named in furniture it drops. */
export const FURNITURE_AUTHOR = 'data-furniture-author';

/**
 * The text of the first element whose class words say author ("the-author", "authorName",
 * "post-detail__meta-author") or that links to its author (rel="author"), or of the innermost
 * such element inside it, when it is name-sized and reads as names.
 */
export function nameOfAuthorClass(authorElements: readonly DomElement[]): string | undefined {
  const named = innermostFirst(authorElements.filter((e) => (classWords(e).includes('author') || e.getAttribute('rel') === 'author') && splitNames(shortTextOf(e, MAX_NAME_CHARS) ?? '').length));
  return named && shortTextOf(named, MAX_NAME_CHARS);
}

/** The first name an author element's photo gives. */
function authorPhotoInside(authorElements: readonly DomElement[]): string | undefined {
  for (const element of authorElements) {
    for (const image of element.querySelectorAll('img[alt]')) {
      const name = authorPhotoName(image);
      if (splitNames(name).length) return name;
    }
  }
  return undefined;
}

/** An author photo's alternative text without its description ("Headshot of Jane Doe", "Author Jane Doe", "Jane Doe's avatar", "Jane Doe, Senior Writer"), when it is a name. */
function authorPhotoName(image: DomElement): string {
  const alt = normalizeSpace(image.getAttribute('alt')).replace(/,.*$/, '').replace(PHOTO_WORDS, '').replace(/[’']s$/, '');
  return looksLikeName(alt) ? alt : '';
}

/** The first element, or the innermost of those inside it (a wrapper "post-author" around "author-name": the name alone). */
function innermostFirst(elements: readonly DomElement[]): DomElement | undefined {
  let chosen = elements[0];
  for (const element of elements.slice(1)) {
    let ancestor = element.parentElement;
    while (ancestor && ancestor !== chosen) ancestor = ancestor.parentElement;
    if (ancestor) chosen = element;
  }
  return chosen;
}

/** An author given by reference ({"@id": "…#/schema/person/…"}, as Yoast's @graph does): the record with that @id. */
function withName(value: StructuredValue, data: StructuredData): StructuredValue {
  if (typeof value === 'string' || value.properties.name) return value;
  const id = value.properties['@id']?.find((v): v is string => typeof v === 'string');
  return (id && recordById(data.records, id)) || value;
}

function recordById(records: StructuredRecord[], id: string): StructuredRecord | undefined {
  for (const record of records) {
    if (record.properties.name && record.properties['@id']?.includes(id)) return record;
    for (const values of Object.values(record.properties)) {
      const nested = recordById(values.filter((v): v is StructuredRecord => typeof v !== 'string'), id);
      if (nested) return nested;
    }
  }
  return undefined;
}

/** The candidate the author model rates highest, when it passes the model's threshold (else none). */
export function articleAuthors(candidates: AuthorCandidate[], model: LogisticModel): AuthorCandidate | undefined {
  let best: AuthorCandidate | undefined;
  let bestScore = model.threshold ?? 0.5;
  for (const candidate of candidates) {
    const score = predictProbability(model, candidate.features);
    if (score > bestScore) [best, bestScore] = [candidate, score];
  }
  return best;
}

/**
 * "By Jane Doe and John Roe, Reuters" → names; a link or a long sentence is no name, nor a
 * label alone ("Written by", "Name *"), nor a CMS placeholder ("admin"). A date or a reading
 * time the byline's element runs into ("Luke KimDecember 17, 2025", "Dec 17, 2025 · Jane Doe",
 * "5 min read") is not part of a name.
 */
export function splitNames(text: string): string[] {
  const cleaned = withoutDates(normalizeSpace(text)).replace(BYLINE_PREFIX, '').replace(/\s*\|.*$/, '').replace(UPDATE_TAIL, '').replace(GLUED_ROLE, '');
  if (!cleaned || /^https?:/.test(cleaned) || BYLINE_LABEL.test(cleaned)) return [];
  return cleaned
    // conjunctions in lower case and between spaces: "Sarah E. Needleman" is one name
    // (a serial comma before the last: "A, B, and C"); "with" only before a name: "written with the help of…" is a sentence
    .split(/\s*[,;&·•]\s*(?:(?:and|und|et|e|y)\s+)?|\s+(?:and|And|AND|und|et|e|y)\s+|\s+with\s+(?=\p{Lu})/u)
    .map((name) => name.trim())
    .filter((name) => name.length > 1 && name.length <= MAX_NAME_CHARS && /\p{L}/u.test(name) && name.split(' ').length <= 5 && !NOT_A_NAME.test(name) && !BYLINE_LABEL.test(name));
}

// A form's field label ("Name *"), an account a CMS fills in when nobody is named, a template's unfilled variable ("page.head.extra.author", "undefined"), an e-mail address (a CMS account's login), a link's call to action ("Learn more", "View profile"), a writer's job after the name ("Shannon Williams, Journalist").
const NOT_A_NAME =
  /\*|^(?:admin|administrator|webmaster|undefined|null|none|unknown|anonymous|guest)$|^[a-z]+(?:\.[a-z]+){2,}$|^\S+@\S+$|^(?:(?:learn|read|see|view)\s+more|(?:view|see)\s+(?:full\s+)?(?:profile|bio))$|^(?:(?:senior|staff|contributing|managing|associate|deputy|chief|tech|freelance)\s+)?(?:journalist|editor|writer|reporter|correspondent|contributor|columnist)s?$/i;
// The update line a byline runs into, spaced or not ("… and Natalie Nguyen Updated", "ACO Rankings TeamUpdated on …").
const UPDATE_TAIL = /(?:\s+|(?<=\p{Ll}))(?:last\s+)?(?:updated|published)\b.*$/iu;
// A job run into the name by the page's markup ("Rachel MacDonaldWriter", "Harry RabinowitzTech Reporter"): capitalised, right after a lower-case letter.
const GLUED_ROLE = /(?<=\p{Ll})(?:(?:Senior|Staff|Contributing|Managing|Associate|Deputy|Chief|Tech|Freelance)\s+)?(?:Journalist|Editor|Writer|Reporter|Correspondent|Contributor|Columnist)s?\b.*$/u;
const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
// "December 17, 2025", "Dec. 19", "4 August 2010", "2025-12-17", "3/4/2025" (also run into the name: "Yucy3/4/2025"), "5 min read" (also run into a year: "202410 Min Read"), "on Tuesday".
const DATE_IN_BYLINE = new RegExp(`${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?|\\b\\d{1,2}\\s+${MONTH}(?:,?\\s+\\d{4})?|\\b\\d{4}-\\d{2}-\\d{2}\\b|\\d{1,2}\/\\d{1,2}\/\\d{2,4}|\\d+\\s*min(?:ute)?s?\\s+read\\b|\\b(?:on\\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day\\b`, 'giu');

function withoutDates(text: string): string {
  return normalizeSpace(text.replace(DATE_IN_BYLINE, ' , '));
}

// Words that join names in a byline ("Jane Doe and John Roe", "A, B und C", "Dieter Hogen with Uta Pippig").
const JOINERS = new Set(['and', 'und', 'et', 'e', 'y', 'with']);

/** A byline's text without its "By" / "Written by" label, " | Site" tail and update line, when it holds exactly these names (joined by commas, "&" or "and"). */
function asWritten(text: string, key: string): string | undefined {
  const cleaned = normalizeSpace(text).replace(BYLINE_PREFIX, '').replace(/\s*\|.*$/, '').replace(UPDATE_TAIL, '');
  const words = cleaned.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  return words.filter((w) => !JOINERS.has(w)).join(' ') === key.split(' ').filter((w) => !JOINERS.has(w)).join(' ') ? cleaned : undefined;
}

/** The host's labels that name a site ("health.clevelandclinic.org" → clevelandclinic, health), without www and the top-level domain. */
function hostLabels(url: string): string[] {
  const hostname = URL.canParse(url) ? new URL(url).hostname : '';
  return hostname.split('.').slice(0, -1).filter((label) => label !== 'www');
}

/** A company or a site named by its domain ("Cleveland Clinic" on clevelandclinic.org, "TopGear.com", "uclahealth"): a byline account, rarely a writer. */
function namesHost(key: string, labels: string[]): boolean {
  const compact = key.replace(/ /g, '');
  return compact.length >= 3 && labels.some((label) => label === compact || (label.length >= 4 && compact.includes(label)) || (compact.length >= 6 && label.includes(compact)));
}

function namesKey(names: string[]): string {
  return (names.join(' ').toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).join(' ');
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}
