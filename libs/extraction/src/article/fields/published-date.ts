import { DomDocument, normalizeSpace } from '../../dom';
import { StructuredData, StructuredRecord, metaValue, propertyText } from '../../structured-data';

export interface PublishedDate {
  /** ISO 8601 with a `T`; the zone only when the page gave one. */
  iso: string;
  /** As the page wrote it. */
  raw: string;
}

const DATE_META = ['article:published_time', 'og:published_time', 'datepublished', 'pubdate', 'publishdate', 'publish-date', 'date', 'dc.date', 'dc.date.issued', 'dcterms.date', 'sailthru.date', 'parsely-pub-date'];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const ISO_LIKE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?/;

/** The article's publication date: structured data, then meta tags, then the first <time datetime>. */
export function publishedDate(article: StructuredRecord | undefined, data: StructuredData, document: DomDocument): PublishedDate | undefined {
  const candidates = [
    propertyText(article, 'datePublished'),
    metaValue(data, ...DATE_META),
    document.querySelector('time[datetime]')?.getAttribute('datetime') ?? undefined,
    normalizeSpace(document.querySelector('time')?.textContent) || undefined,
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
  const written = /\b([A-Za-z]{3,})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/.exec(text) ?? /\b(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,})\.?,?\s+(\d{4})\b/.exec(text);
  if (written) {
    const [monthName, day] = /^\d/.test(written[1]) ? [written[2], written[1]] : [written[1], written[2]];
    const month = MONTHS.indexOf(monthName.slice(0, 3).toLowerCase()) + 1;
    if (month && validDate(+written[3], month, +day)) return `${written[3]}-${pad(month)}-${pad(+day)}T${timeOfDay(text.replace(written[0], ' '))}`;
  }
  return undefined;
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
