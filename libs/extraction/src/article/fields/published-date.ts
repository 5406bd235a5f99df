import { classWords, DomDocument, normalizeSpace, shortTextOf } from '../../dom';
import { StructuredData, StructuredRecord, metaValue, propertyText } from '../../structured-data';

export interface PublishedDate {
  /** ISO 8601 with a `T`; the zone only when the page gave one. */
  iso: string;
  /** As the page wrote it. */
  raw: string;
}

const DATE_META = ['article:published_time', 'og:published_time', 'datepublished', 'pubdate', 'publishdate', 'publish-date', 'date', 'dc.date', 'dc.date.issued', 'dcterms.date', 'sailthru.date', 'parsely-pub-date'];
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
const DATE_WORDS = new Set(['date', 'dateline', 'published', 'publish', 'pubdate', 'timestamp', 'posted', 'datetime', 'time']);
const MAX_DATE_TEXT = 80;
const ISO_LIKE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?/;

/** The article's publication date: structured data, then meta tags, then <time>, then an element named as a date. */
export function publishedDate(article: StructuredRecord | undefined, data: StructuredData, document: DomDocument): PublishedDate | undefined {
  const candidates = [
    propertyText(article, 'datePublished'),
    metaValue(data, ...DATE_META),
    document.querySelector('time[datetime]')?.getAttribute('datetime') ?? undefined,
    normalizeSpace(document.querySelector('time')?.textContent) || undefined,
    ...shownDates(document),
  ];
  for (const raw of candidates) {
    const iso = raw && toIsoDate(raw.trim());
    if (iso) return { iso, raw: raw.trim() };
  }
  return undefined;
}

/**
 * "2019-11-19 08:21:00+0000" → "2019-11-19T08:21:00+00:00"; "Nov. 19, 2019" / "19 November 2019"
 * → "2019-11-19T00:00:00", with the time of day when the text gives one (zone names other
 * than GMT/UTC are ambiguous and left out).
 */
export function toIsoDate(text: string): string | undefined {
  const iso = ISO_LIKE.exec(text);
  if (iso) {
    const [, year, month, day, hours = '00', minutes = '00', seconds = '00', fraction = '', zone] = iso;
    if (!validDate(+year, +month, +day)) return undefined;
    const offset = zone === undefined ? '' : zone === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
    return `${year}-${month}-${day}T${hours}:${minutes}:${seconds}${fraction}${offset}`;
  }
  const written = WRITTEN_MONTH_FIRST.exec(text) ?? WRITTEN_DAY_FIRST.exec(text);
  if (written) {
    const [monthName, day] = /^\d/.test(written[1]) ? [written[2], written[1]] : [written[1], written[2]];
    const month = monthNumber(monthName);
    if (month && validDate(+written[3], month, +day)) return `${written[3]}-${pad(month)}-${pad(+day)}T${timeOfDay(text.replace(written[0], ' '))}`;
  }
  // Numeric: 2024年3月5日 / 2024년 3월 5일, 2024/03/05, 05.03.2024 (day first); 03/05/2024 is ambiguous and left out.
  const numeric = /(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]?/.exec(text) ?? /\b(\d{4})\/(\d{1,2})\/(\d{1,2})\b/.exec(text);
  const dotted = /\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/.exec(text);
  const [year, month, day] = numeric ? [+numeric[1], +numeric[2], +numeric[3]] : dotted ? [+dotted[3], +dotted[2], +dotted[1]] : [0, 0, 0];
  const match = numeric ?? dotted;
  if (match && validDate(year, month, day)) return `${year}-${pad(month)}-${pad(day)}T${timeOfDay(text.replace(match[0], ' '))}`;
  return undefined;
}

// "Nov. 19, 2019", "March 5, 2024"; "19 November 2019", "5. März 2024", "5 de marzo de 2024".
const WRITTEN_MONTH_FIRST = /(?<![\p{L}])(\p{L}{3,})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/u;
const WRITTEN_DAY_FIRST = /\b(\d{1,2})(?:st|nd|rd|th|\.)?\s+(?:de\s+)?(\p{L}{3,})\.?,?\s+(?:de\s+)?(\d{4})\b/u;

function monthNumber(name: string): number {
  const token = name.toLowerCase();
  const months = new Set(MONTH_NAMES.flatMap((names, i) => (names.some((n) => n.startsWith(token)) ? [i + 1] : [])));
  return months.size === 1 ? [...months][0] : 0;
}

/** Texts of elements whose class or id names a date ("post-date", "published", "timestamp"), in page order. */
function shownDates(document: DomDocument): string[] {
  return document
    .querySelectorAll('[class*=date i], [class*=time i], [class*=publish i], [class*=posted i], [id*=date i]')
    .filter((element) => classWords(element).some((word) => DATE_WORDS.has(word)))
    .map((element) => shortTextOf(element, MAX_DATE_TEXT))
    .filter((text): text is string => !!text);
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
