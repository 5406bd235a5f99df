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
const ISO_CODES = '(?:USD|EUR|GBP|JPY|CNY|RUB|RUR|UAH|PLN|CZK|HUF|RON|BGN|HRK|SEK|NOK|DKK|CHF|CAD|AUD|NZD|BRL|MXN|ARS|CLP|COP|PEN|INR|IDR|MYR|SGD|HKD|TWD|KRW|THB|VND|PHP|ILS|TRY|ZAR|AED|SAR|KZT|BYN|EGP|NGN)(?![A-Za-z])';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const MARKS = `${CURRENCY_MARKS.map(escapeRegExp).join('|')}|${ISO_CODES}`;
const MARK_BEFORE = new RegExp(`(${MARKS})\\s*$`);
// A word mark must end there: "12 kraftige" holds no "kr".
const MARK_AFTER = new RegExp(`^\\s*(${MARKS})(?![A-Za-zА-Яа-яÀ-ÿ])`);
// An amount: digits with thousands separators (space, no-break/thin space, apostrophe, dot, comma) and decimals.
const AMOUNTS = /\d{1,3}(?:[ \u00a0\u202f\u2009'’](?=\d{3}(?!\d))\d{3})+(?:[.,]\d{1,2})?|\d(?:[\d.,]*\d)?(?:[.,](?:-|–|—))?/g;

export function parsePrice(text: string | null | undefined): ParsedPrice | undefined {
  return parsePrices(text)[0];
}

// A text of amounts and their currency marks only ("$110", "€25 €49", "1.299,00 €"): no word, no label.
const AMOUNTS_ONLY = new RegExp(`^(?:\\s*(?:${MARKS})?\\s*(?:${AMOUNTS.source})\\s*(?:${MARKS})?)+\\s*$`);

/** The amounts of a text that holds nothing but amounts, each with a currency mark; else none. */
export function currencyAmountsOnly(text: string): ParsedPrice[] {
  if (!AMOUNTS_ONLY.test(text)) return [];
  const prices = parsePrices(text);
  return prices.every((price) => price.currency) ? prices : [];
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

/** The currency mark written right before or after the amount (spaces between at most). */
function currencyNear(text: string, start: number, end: number): string | undefined {
  const before = text.slice(Math.max(0, start - 8), start);
  const after = text.slice(end, end + 8);
  return MARK_BEFORE.exec(before)?.[1] ?? MARK_AFTER.exec(after)?.[1];
}

/** An amount given as data (JSON-LD, content attributes): "24990", "115.0", "1,299.00", "26,00 €". */
export function amountFromData(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return trimmed;
  return parsePrice(trimmed)?.amount;
}
