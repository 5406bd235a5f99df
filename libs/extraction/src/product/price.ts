/**
 * Prices as pages write them: "1.299,00 €", "$1,299.99", "£12", "12,-", "CHF 1'299.–",
 * "от 249 ₽", "1 299 Kč". The amount comes back with a dot as the decimal separator and
 * the currency as written next to it.
 */
export interface ParsedPrice {
  amount: string;
  currency?: string;
}

// Symbols and words pages put next to an amount; longer ones first so "R$" wins over "$".
const CURRENCY_MARKS = [
  'R$', 'US$', 'C$', 'A$', 'NZ$', 'HK$', 'S$', 'CA$', 'AU$', 'MX$', '$', '€', '£', '¥', '₽', '₩', '₹', '₺', '₪', '₴', '₫', '฿', '₱', '₦', '₡', '₸', '₾', '₼',
  'zł', 'Kč', 'kr.', 'kr', 'Ft', 'lei', 'лв.', 'лв', 'руб.', 'руб', 'р.', 'тг.', 'тг', 'грн', 'Kn', 'kn', '원', '円', '元', 'Rs.', 'Rs', 'RM', 'Rp', 'CHF', 'Fr.',
];
const ISO_CODE = /\b(USD|EUR|GBP|JPY|CNY|RUB|RUR|UAH|PLN|CZK|HUF|RON|BGN|HRK|SEK|NOK|DKK|CHF|CAD|AUD|NZD|BRL|MXN|ARS|CLP|COP|PEN|INR|IDR|MYR|SGD|HKD|TWD|KRW|THB|VND|PHP|ILS|TRY|ZAR|AED|SAR|KZT|BYN|EGP|NGN)\b/;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const MARK_PATTERN = new RegExp(CURRENCY_MARKS.map(escapeRegExp).join('|'));
// An amount: digits with thousands separators (space, no-break/thin space, apostrophe, dot, comma) and decimals.
const AMOUNTS = /\d{1,3}(?:[ \u00a0\u202f\u2009'’](?=\d{3}(?!\d))\d{3})+(?:[.,]\d{1,2})?|\d[\d.,]*(?:[.,](?:-|–|—))?/g;

export function parsePrice(text: string | null | undefined): ParsedPrice | undefined {
  return parsePrices(text)[0];
}

/** Every amount of the text, in order ("49 890 тг. 44 890 тг." holds two: an old and a new price). */
export function parsePrices(text: string | null | undefined): ParsedPrice[] {
  if (!text) return [];
  const prices: ParsedPrice[] = [];
  for (const match of text.matchAll(AMOUNTS)) {
    const amount = normalizeAmount(match[0]);
    if (amount === undefined) continue;
    const currency = currencyNear(text, match.index, match.index + match[0].length);
    prices.push(currency ? { amount, currency } : { amount });
  }
  return prices;
}

/** The dot-decimal form of one written amount, or undefined when it is not a number. */
export function normalizeAmount(written: string): string | undefined {
  let digits = written.replace(/[ \u00a0\u202f\u2009'’]/g, '').replace(/[.,](?:-|–|—)$/, '');
  digits = digits.replace(/[.,]+$/, '');
  const separators = digits.replace(/\d/g, '');
  if (separators.length) {
    const last = separators[separators.length - 1];
    const lastIndex = digits.lastIndexOf(last);
    const decimals = digits.length - lastIndex - 1;
    // One separator before exactly three digits groups thousands ("1,299", "1.299"); of two kinds, the last is decimal.
    const lastIsDecimal = separators.length === 1 ? decimals !== 3 : !separators.slice(0, -1).includes(last);
    digits = lastIsDecimal ? `${digits.slice(0, lastIndex).replace(/[.,]/g, '')}.${digits.slice(lastIndex + 1)}` : digits.replace(/[.,]/g, '');
  }
  if (!/^\d+(\.\d+)?$/.test(digits)) return undefined;
  return digits.replace(/^0+(?=\d)/, '');
}

/** The currency mark written just before or after the amount (a few characters away at most). */
function currencyNear(text: string, start: number, end: number): string | undefined {
  const after = text.slice(end, end + 8);
  const before = text.slice(Math.max(0, start - 8), start);
  for (const side of [before, after]) {
    const iso = ISO_CODE.exec(side);
    const mark = MARK_PATTERN.exec(side);
    if (mark && (!iso || mark.index <= iso.index)) return mark[0];
    if (iso) return iso[0];
  }
  return undefined;
}

/** An amount given as data (JSON-LD, content attributes): "24990", "115.0", "1,299.00", "26,00 €". */
export function amountFromData(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return trimmed;
  return parsePrice(trimmed)?.amount;
}
