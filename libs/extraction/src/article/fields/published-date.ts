import { DomDocument, DomElement, DomNode, TEXT_NODE, classWords, isElement, normalizeSpace, shortTextOf, textsAfter, textsBefore } from '../../dom';
import { StructuredData, StructuredRecord, propertyText } from '../../structured-data';
import { FeatureValues, LogisticModel, predictProbability } from '../../model/logistic';
import { headingKey } from '../body/render-body';

export interface PublishedDate {
  /** ISO 8601 with a `T`; the zone only when the page gave one. */
  iso: string;
  /** As the page wrote it. */
  raw: string;
}

/** One day the page states as its date, with the signals the date model weighs. */
export interface DateCandidate extends PublishedDate {
  features: FeatureValues;
}

/** Where a date candidate comes from (each is a feature of the date model). */
const SOURCES = [
  'structuredPublished',
  'structuredModified',
  'structuredCreated',
  'recordPublished',
  'recordModified',
  'metaPublished',
  'metaModified',
  'metaRecordPublished',
  'timeElement',
  'shownDate',
  'afterHeadline',
  'beforeHeadline',
  'labelledText',
  'furniture',
  'url',
] as const;
type Source = (typeof SOURCES)[number];
/** Shown sources: what a reader sees on the page. */
const SHOWN: ReadonlySet<Source> = new Set(['timeElement', 'shownDate', 'afterHeadline', 'beforeHeadline', 'labelledText', 'furniture']);

// Meta tags of a date, by what their names say (article:published_time, pubdate, pub-date, dc.date.issued, citation_publication_date …; article:modified_time, og:updated_time, last-modified …).
const META_MODIFIED = /modif|updat|revis|lastmod/;
const META_PUBLISHED = /publi|pub-?date|^date$|^dc(terms)?\.date|issued|created|^citation_date|^sailthru\.date/;
// Words a page puts before a date it updated, or the date it published, in en/de/fr/it/es/pt/nl.
const UPDATED_WORDS = /updat|modif|revis|reviewed|aktualisiert|mis à jour|actualiz|atualiz|bijgewerkt|aggiornat/i;
const PUBLISHED_WORDS = /publi|posted|post (?:time|date)|veröffentlicht|erschienen|pubblicat|gepubliceerd/i;
// A date in the address: /2024/03/05/, 2024-03-05, /2024/03/05the-slug (whatever follows but a digit).
const URL_DATE = /(?:^|\/)((?:19|20)\d{2})[/-](\d{1,2})[/-](\d{1,2})(?!\d)/;
// Or with the month alone: /2025/12/the-slug/.
const URL_MONTH = /(?:^|\/)((?:19|20)\d{2})\/(\d{1,2})\/(?!\d)/;
// Or with the month's name: /2023/october/03/.
const URL_WRITTEN_DATE = /(?:^|\/)((?:19|20)\d{2})\/(\p{L}{3,})\/(\d{1,2})(?!\d)/u;
// Month names in en, de, fr, it, es, pt, nl (index + 1 is the month). A written name or
// abbreviation is the month whose names it begins, when they all agree ("Mar", "Sept", "Okt").
const MONTH_NAMES = [
  ['january', 'januar', 'janvier', 'gennaio', 'enero', 'janeiro', 'januari'],
  ['february', 'februar', 'février', 'febbraio', 'febrero', 'fevereiro', 'februari'],
  ['march', 'märz', 'maerz', 'mars', 'marzo', 'março', 'maart'],
  ['april', 'avril', 'aprile', 'abril'],
  ['may', 'mai', 'maggio', 'mayo', 'maio', 'mei'],
  ['june', 'juni', 'juin', 'giugno', 'junio', 'junho'],
  ['july', 'juli', 'juillet', 'luglio', 'julio', 'julho'],
  ['august', 'août', 'agosto', 'augustus'],
  ['september', 'septembre', 'settembre', 'septiembre', 'setiembre', 'setembro'],
  ['october', 'oktober', 'octobre', 'ottobre', 'octubre', 'outubro'],
  ['november', 'novembre', 'noviembre', 'novembro'],
  ['december', 'dezember', 'décembre', 'dicembre', 'diciembre', 'dezembro'],
];
// Class and id words of an element that shows the date.
const DATE_WORDS = new Set(['date', 'dates', 'dateline', 'published', 'publish', 'pubdate', 'timestamp', 'posted', 'datetime', 'time']);
export const MAX_DATE_TEXT = 80;
const DAY_MS = 86_400_000;
// A label alone in its text ("Published on", "Last updated:"): its date is the next text.
const MAX_LABEL = 30;
const MAX_HEADLINE_TEXT = 300;
const UNREAD_TAGS = new Set(['script', 'style', 'noscript', 'template', 'svg']);
const RECORD_PUBLISHED = /"datePublished"\s*:\s*"([^"]{8,40})"/;
// How many labelled dates ("Posted on …", "Last updated: …") are read anywhere on the page: a
// comment thread's dates come after the article's.
const MAX_LABELLED_TEXTS = 3;
const ISO_LIKE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?/;

interface Sighting {
  source: Source;
  raw: string;
  /** What a reader sees around a shown date (its label: "Updated", "Published on"). */
  context: string;
  /** 1 for the first date after the page's <h1>. */
  firstAfterHeadline: boolean;
}

// How far past the <h1> a shown date is looked for (text nodes), and how far before it (a
// dateline or kicker above the headline: "News · 12 March 2025").
const TEXTS_AFTER_HEADLINE = 40;
const TEXTS_BEFORE_HEADLINE = 4;
const MAX_SHOWN_ELEMENTS = 3;

/**
 * Every day the page states as its date: the article record's datePublished / dateModified /
 * dateCreated, another record's (a WebPage's), meta tags of a publication or a change,
 * <time> elements, elements whose class names a date, the dates a reader sees right after the
 * <h1> or just above it, the date of an aside or footer the reader dropped, a date in the address. The same day from several places is one candidate with each of
 * its sources; the date model weighs them (sources, agreement, an "Updated" or "Published"
 * label beside it, the latest or earliest of the page's days, shown on the page or not).
 */
export function dateCandidates(article: StructuredRecord | undefined, data: StructuredData, document: DomDocument, url: string, headlineKeys: ReadonlySet<string> = new Set()): DateCandidate[] {
  const sightings: Sighting[] = [];
  const monthFirst = writesMonthFirst(document, data);
  const add = (source: Source, raw: string | null | undefined, context = '', firstAfterHeadline = false) => {
    if (raw?.trim()) sightings.push({ source, raw: raw.trim(), context, firstAfterHeadline });
  };
  add('structuredPublished', propertyText(article, 'datePublished'));
  add('structuredModified', propertyText(article, 'dateModified'));
  add('structuredCreated', propertyText(article, 'dateCreated'));
  const other = otherRecordDates(data.records, article);
  add('recordPublished', other.datePublished);
  add('recordModified', other.dateModified);
  for (const [key, values] of Object.entries(data.meta)) {
    if (META_MODIFIED.test(key)) add('metaModified', values[0]);
    else if (META_PUBLISHED.test(key)) add('metaPublished', values[0]);
  }
  add('metaRecordPublished', metaRecordPublished(data));
  const times = document.querySelectorAll('time');
  // An aside's or a footer's date that leanHtml left in place of the block (no text, no context).
  const [furniture, shown] = [times.filter((t) => t.hasAttribute('data-furniture')), times.filter((t) => !t.hasAttribute('data-furniture'))];
  for (const time of shown.slice(0, MAX_SHOWN_ELEMENTS)) add('timeElement', time.getAttribute('datetime') || normalizeSpace(time.textContent), contextOf(time));
  for (const time of furniture.slice(0, MAX_SHOWN_ELEMENTS)) add('furniture', time.getAttribute('datetime'));
  for (const element of shownDateElements(document).slice(0, MAX_SHOWN_ELEMENTS)) add('shownDate', shortTextOf(element, MAX_DATE_TEXT), contextOf(element));
  const h1 = document.querySelector('h1') ?? headlineText(document, headlineKeys) ?? headlineLikeHeading(document, headlineKeys);
  if (h1) {
    let first = true;
    for (const [text, previous] of textsAfter(h1, TEXTS_AFTER_HEADLINE)) {
      if (text.length > MAX_DATE_TEXT || !toIsoDate(text, monthFirst)) continue;
      add('afterHeadline', text, `${previous} ${text}`, first);
      first = false;
    }
    const before = textsBefore(h1, TEXTS_BEFORE_HEADLINE);
    before.forEach((text, i) => {
      if (text.length <= MAX_DATE_TEXT && toIsoDate(text, monthFirst)) add('beforeHeadline', text, `${before[i + 1] ?? ''} ${text}`);
    });
  }
  for (const [text, context] of labelledDates(document, monthFirst)) add('labelledText', text, context);
  const path = pathOf(url);
  const addressDate = URL_DATE.exec(path);
  const writtenAddressDate = addressDate ? null : URL_WRITTEN_DATE.exec(path);
  if (addressDate) add('url', `${addressDate[1]}-${pad(+addressDate[2])}-${pad(+addressDate[3])}`);
  else if (writtenAddressDate && monthNumber(writtenAddressDate[2])) add('url', `${writtenAddressDate[1]}-${pad(monthNumber(writtenAddressDate[2]))}-${pad(+writtenAddressDate[3])}`);
  else add('url', dayOfAddressMonth(path, sightings, monthFirst));
  return groupedByDay(sightings, monthFirst);
}

/**
 * An address that gives the year and month alone (/2025/12/the-slug/) names the one day of the
 * page in that month, when there is one: a book blog's post dated 20 December among the
 * June and November dates of the books it reviews.
 */
function dayOfAddressMonth(path: string, sightings: Sighting[], monthFirst: boolean): string | undefined {
  const month = URL_MONTH.exec(path);
  if (!month) return undefined;
  const prefix = `${month[1]}-${pad(+month[2])}-`;
  const days = new Set(sightings.map((s) => toIsoDate(s.raw, monthFirst)?.slice(0, 10)).filter((day) => day?.startsWith(prefix)));
  return days.size === 1 ? [...days][0] : undefined;
}

/**
 * A page without an <h1> still shows its headline, in an <h2> or a styled <div> ("Homestead
 * gardening …" then "By … · RAJSHAHI, Dec 20, 2025 (BSS) -"): the element of the first text
 * that is one of the page's stated headlines stands in for the <h1>.
 */
function headlineText(document: DomDocument, headlineKeys: ReadonlySet<string>): DomElement | null {
  if (!headlineKeys.size || !document.body) return null;
  const find = (node: DomNode): DomElement | null => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        const text = child.textContent ?? '';
        if (text.length <= MAX_HEADLINE_TEXT && headlineKeys.has(headingKey(text))) return node as DomElement;
      } else if (isElement(child) && !UNREAD_TAGS.has(child.localName)) {
        const found = find(child);
        if (found) return found;
      }
    }
    return null;
  };
  return find(document.body);
}

/**
 * Else the first of the page's <h2>s that holds nearly every word of a stated headline: the
 * shown title words it longer ("7 Ways to Help You Transition to a Plant Based Diet" for the
 * stated "7 Ways to Transition to a Plant-Based Diet"), and its date is under or over it.
 */
function headlineLikeHeading(document: DomDocument, headlineKeys: ReadonlySet<string>): DomElement | null {
  const stated = [...headlineKeys].map((key) => key.split(' ')).filter((words) => words.length >= MIN_HEADLINE_WORDS);
  for (const heading of document.querySelectorAll('h2').slice(0, MAX_HEADINGS_READ)) {
    const words = new Set(headingKey(shortTextOf(heading, MAX_HEADLINE_TEXT)).split(' '));
    if (stated.some((key) => key.filter((word) => words.has(word)).length >= key.length * HEADLINE_WORDS_SHARE)) return heading;
  }
  return null;
}
const MIN_HEADLINE_WORDS = 3;
const MAX_HEADINGS_READ = 5;
const HEADLINE_WORDS_SHARE = 0.8;

/**
 * A US-English page writes 3/4/2025 month first: lang="en-US" (else og:locale en_US), and
 * English without a country (lang="en"): most such sites are American (a reader of 3/4/2025
 * on a British site sees lang="en-GB" as often).
 */
function writesMonthFirst(document: DomDocument, data: StructuredData): boolean {
  const locale = document.documentElement.getAttribute('lang') || data.meta['og:locale']?.[0] || '';
  return /^en(?:[-_]us\b|$)/i.test(locale.trim());
}

function groupedByDay(sightings: Sighting[], monthFirst: boolean): DateCandidate[] {
  const days = new Map<string, { iso: string; raw: string; sources: Set<Source>; updated: boolean; published: boolean; firstAfterHeadline: boolean }>();
  const certainDays = new Set(sightings.filter((s) => !isEitherWayRound(s.raw)).map((s) => toIsoDate(s.raw)?.slice(0, 10)));
  for (const sighting of sightings) {
    const iso = readingOf(sighting.raw, monthFirst, certainDays);
    if (!iso) continue;
    const day = iso.slice(0, 10);
    const entry = days.get(day) ?? { iso, raw: sighting.raw, sources: new Set<Source>(), updated: false, published: false, firstAfterHeadline: false };
    entry.sources.add(sighting.source);
    entry.updated ||= UPDATED_WORDS.test(sighting.context);
    entry.published ||= PUBLISHED_WORDS.test(sighting.context);
    entry.firstAfterHeadline ||= sighting.firstAfterHeadline;
    days.set(day, entry);
  }
  const sorted = [...days.keys()].sort();
  const shownDays = [...days.values()].filter((entry) => [...entry.sources].some((s) => SHOWN.has(s))).length;
  return [...days].map(([day, entry]) => {
    const features: FeatureValues = Object.fromEntries(SOURCES.map((s) => [`from_${s}`, entry.sources.has(s) ? 1 : 0]));
    features.agreement = entry.sources.size;
    features.shown = [...entry.sources].some((s) => SHOWN.has(s)) ? 1 : 0;
    // The one day the page shows is the one its reader takes for its date, whatever the fields say.
    features.onlyShown = features.shown && shownDays === 1 ? 1 : 0;
    features.updatedLabel = entry.updated ? 1 : 0;
    features.publishedLabel = entry.published ? 1 : 0;
    features.firstAfterHeadline = entry.firstAfterHeadline ? 1 : 0;
    features.days = Math.min(sorted.length, 5);
    features.latest = sorted.length > 1 && day === sorted[sorted.length - 1] ? 1 : 0;
    features.earliest = sorted.length > 1 && day === sorted[0] ? 1 : 0;
    // How far the day lies from the page's first and last days (log days): a typo fixed the next week or a guide refreshed years later.
    features.afterEarliest = Math.log1p((Date.parse(day) - Date.parse(sorted[0])) / DAY_MS);
    features.beforeLatest = Math.log1p((Date.parse(sorted[sorted.length - 1]) - Date.parse(day)) / DAY_MS);
    features.span = Math.log1p((Date.parse(sorted[sorted.length - 1]) - Date.parse(sorted[0])) / DAY_MS);
    return { iso: entry.iso, raw: entry.raw, features };
  });
}

/**
 * A date as the page means it: a numeric date whose day and month could be either way round
 * ("03/10/2023", "09.10.2024") takes the reading that another place of the page states
 * unambiguously (the address /2023/october/03/, a structured date), when just one of them is;
 * else the page's locale decides (day first, or month first with slashes on an English page).
 */
function readingOf(raw: string, monthFirst: boolean, certainDays: ReadonlySet<string | undefined>): string | undefined {
  const iso = toIsoDate(raw, monthFirst);
  const read = isEitherWayRound(raw) ? toIsoDate(raw, true) : undefined;
  if (!read) return iso;
  const stated = [read, `${read.slice(0, 5)}${read.slice(8, 10)}-${read.slice(5, 7)}${read.slice(10)}`].filter((r) => certainDays.has(r.slice(0, 10)));
  return stated.length === 1 ? stated[0] : iso;
}

const NUMERIC_DATE = /\b(\d{1,2})([./-])(\d{1,2})\2(\d{4})\b/;
function isEitherWayRound(raw: string): boolean {
  const numeric = ISO_LIKE.test(raw) ? null : NUMERIC_DATE.exec(raw);
  return !!numeric && +numeric[1] <= 12 && +numeric[3] <= 12 && +numeric[1] !== +numeric[3];
}

/** The candidate the date model rates highest, when it passes the model's threshold (else no date). */
export function articleDate(candidates: DateCandidate[], model: LogisticModel): PublishedDate | undefined {
  let best: PublishedDate | undefined;
  let bestScore = model.threshold ?? 0.5;
  for (const candidate of candidates) {
    const score = predictProbability(model, candidate.features);
    if (score > bestScore) [best, bestScore] = [{ iso: candidate.iso, raw: candidate.raw }, score];
  }
  return best;
}

/** datePublished / dateModified of the first record other than the article that has one (a WebPage, a graph's node). */
function otherRecordDates(records: StructuredRecord[], article: StructuredRecord | undefined): { datePublished?: string; dateModified?: string } {
  const found: { datePublished?: string; dateModified?: string } = {};
  const visit = (record: StructuredRecord) => {
    if (record !== article) {
      found.datePublished ??= propertyText(record, 'datePublished');
      found.dateModified ??= propertyText(record, 'dateModified');
    }
    for (const values of Object.values(record.properties)) for (const value of values) if (typeof value !== 'string') visit(value);
  };
  records.forEach(visit);
  return found;
}

/** A datePublished in a record a meta tag holds as JSON (<meta name="script:ld+json" content="{…}">): the pre-parse drops scripts other than ld+json, not meta tags. */
function metaRecordPublished(data: StructuredData): string | undefined {
  for (const values of Object.values(data.meta)) {
    for (const value of values) {
      const found = value.startsWith('{') ? RECORD_PUBLISHED.exec(value) : null;
      if (found) return found[1];
    }
  }
  return undefined;
}

/**
 * Dates anywhere on the page that a label names ("Posted on April 13, 2023", "Last updated:
 * <span>November 13, 2025</span>", "originally published on 26 Sep 2019"), with their label as
 * context: a date line far from the <h1> (a sidebar, the article's end).
 */
function labelledDates(document: DomDocument, monthFirst: boolean): [string, string][] {
  const found: [string, string][] = [];
  let label = '';
  const visit = (node: DomNode): void => {
    for (let child = node.firstChild; child && found.length < MAX_LABELLED_TEXTS; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        const raw = child.textContent ?? '';
        // A paragraph's text is no date line: skipped before normalising (most of the walk's time).
        if (raw.length > MAX_DATE_TEXT * 8) {
          label = '';
          continue;
        }
        const text = normalizeSpace(raw);
        if (!text) continue;
        const labelled = text.length <= MAX_DATE_TEXT * 2 && (PUBLISHED_WORDS.test(text) || UPDATED_WORDS.test(text));
        if ((labelled || label) && text.length <= MAX_DATE_TEXT * 2 && toIsoDate(text, monthFirst)) found.push([text, labelled ? text : `${label} ${text}`]);
        label = labelled && text.length <= MAX_LABEL ? text : '';
      } else if (isElement(child) && !UNREAD_TAGS.has(child.localName)) visit(child);
    }
  };
  if (document.body) visit(document.body);
  return found;
}

/** A shown date's surroundings: its class words and its parent's short text ("Last updated: <span>…</span>"). */
function contextOf(element: DomElement): string {
  const parent = element.parentElement;
  return `${classWords(element).join(' ')} ${(parent && shortTextOf(parent, MAX_DATE_TEXT * 2)) ?? shortTextOf(element, MAX_DATE_TEXT) ?? ''}`;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/**
 * "2019-11-19 08:21:00+0000" → "2019-11-19T08:21:00+00:00"; "Nov. 19, 2019" / "19 November 2019"
 * → "2019-11-19T00:00:00", with the time of day when the text gives one (zone names other
 * than GMT/UTC are ambiguous and left out).
 */
export function toIsoDate(text: string, monthFirst = false): string | undefined {
  const iso = ISO_LIKE.exec(text);
  if (iso) {
    const [, year, month, day, hours = '00', minutes = '00', seconds = '00', fraction = '', zone] = iso;
    if (!validDate(+year, +month, +day)) return undefined;
    const offset = zone === undefined ? '' : zone === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
    return `${year}-${month}-${day}T${hours}:${minutes}:${seconds}${fraction}${offset}`;
  }
  const written = WRITTEN_MONTH_FIRST.exec(text) ?? WRITTEN_DAY_FIRST.exec(text) ?? WRITTEN_YEAR_FIRST.exec(text);
  if (written?.groups) {
    const { year, monthName, day } = written.groups;
    const month = monthNumber(monthName);
    if (month && validDate(+year, month, +day)) return `${year}-${pad(month)}-${pad(+day)}T${timeOfDay(text.replace(written[0], ' '))}`;
  }
  // Numeric: 2024年3月5日 / 2024년 3월 5일, 2024/03/05, 2024.03.05, 05.03.2024 (day first); with slashes or
  // hyphens the order is known only when one part is over 12 (31/12/2024, 12-31-2024) or the page is
  // US English (monthFirst): else 03/05/2024 is left out.
  const numeric = /(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]?/.exec(text) ?? /\b(\d{4})[/.](\d{1,2})[/.](\d{1,2})\b/.exec(text);
  const dotted = /\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/.exec(text);
  const slashed = /\b(\d{1,2})([/-])(\d{1,2})\2(\d{4})\b/.exec(text);
  const [year, month, day] = numeric
    ? [+numeric[1], +numeric[2], +numeric[3]]
    : dotted
      ? [+dotted[3], +dotted[2], +dotted[1]]
      : slashed && (+slashed[1] > 12 !== +slashed[3] > 12 || monthFirst)
        ? [+slashed[4], +slashed[1] > 12 ? +slashed[3] : +slashed[1], +slashed[1] > 12 ? +slashed[1] : +slashed[3]]
        : [0, 0, 0];
  const match = numeric ?? dotted ?? slashed;
  if (match && validDate(year, month, day)) return `${year}-${pad(month)}-${pad(day)}T${timeOfDay(text.replace(match[0], ' '))}`;
  return undefined;
}

// "Nov. 19, 2019", "March 5, 2024"; "19 November 2019", "5. März 2024", "5 de marzo de 2024",
// "04-Aug-2021", "04-ago-2021"; "2023 Jan 7".
const WRITTEN_MONTH_FIRST = /(?<![\p{L}])(?<monthName>\p{L}{3,})\.?\s+(?<day>\d{1,2})(?:st|nd|rd|th)?,?\s+(?<year>\d{4})\b/u;
const WRITTEN_DAY_FIRST = /\b(?<day>\d{1,2})(?:st|nd|rd|th|\.)?(?:\s+|-)(?:de\s+)?(?<monthName>\p{L}{3,})\.?,?(?:\s+|-)(?:de\s+)?(?<year>\d{4})\b/u;
const WRITTEN_YEAR_FIRST = /\b(?<year>\d{4})\s+(?<monthName>\p{L}{3,})\.?\s+(?<day>\d{1,2})\b(?!:)/u;

function monthNumber(name: string): number {
  const token = name.toLowerCase();
  const months = new Set(MONTH_NAMES.flatMap((names, i) => (names.some((n) => n.startsWith(token)) ? [i + 1] : [])));
  return months.size === 1 ? [...months][0] : 0;
}

/** Elements whose class or id names a date ("post-date", "published", "timestamp"), in page order. */
function shownDateElements(document: DomDocument): DomElement[] {
  return document
    .querySelectorAll('[class*=date i], [class*=time i], [class*=publish i], [class*=posted i], [id*=date i]')
    .filter((element) => classWords(element).some((word) => DATE_WORDS.has(word)));
}

/** "07:47 PM EST" → "19:47:00"; "16:07:38 -0600" → "16:07:38-06:00"; "07:09 GMT" → "07:09:00Z"; none → midnight. */
function timeOfDay(text: string): string {
  const time = /\b(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap])?\.?m?\.?(?![\p{L}])/iu.exec(text);
  if (!time) return '00:00:00';
  let hours = +time[1];
  const meridiem = time[4]?.toLowerCase();
  if (meridiem === 'p' && hours < 12) hours += 12;
  if (meridiem === 'a' && hours === 12) hours = 0;
  if (hours > 23 || +time[2] > 59) return '00:00:00';
  const rest = text.slice(time.index + time[0].length);
  const offset = /^\s*([+-])(\d{2}):?(\d{2})\b/.exec(rest);
  const zone = offset ? `${offset[1]}${offset[2]}:${offset[3]}` : /^\s*(GMT|UTC|Z)\b/i.test(rest) ? 'Z' : '';
  return `${pad(hours)}:${time[2]}:${time[3] ?? '00'}${zone}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

function validDate(year: number, month: number, day: number): boolean {
  return year > 1900 && year < 2200 && month >= 1 && month <= 12 && day >= 1 && day <= 31;
}
