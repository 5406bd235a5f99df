import { DomElement, hasClassWord, isElement, normalizeSpace, shortTextOf, wordsOf } from '../dom';
import { currencyAmountsOnly, ParsedPrice, parsePrice, parsePrices } from './price';

// Class/id words of a former price: the one a sale price is shown against.
const FORMER_PRICE = new Set(['old', 'was', 'before', 'strike', 'strikethrough', 'crossed', 'regular', 'rrp', 'uvp', 'msrp', 'original', 'compare', 'previous']);
// Class/id words of prices that are not the one to pay now: former, list and unit prices, savings, shipping, instalments.
const NOT_CURRENT_PRICE = new Set([
  ...FORMER_PRICE, 'reference', 'saving', 'savings', 'save', 'discount', 'percent', 'unit', 'per', 'shipping', 'delivery', 'installment', 'instalment', 'monthly',
  'finance', 'credit', 'range', 'filter', 'min', 'max',
]);
// Containers of other products than the page's own.
export const OTHER_PRODUCTS = new Set([
  'related', 'recommend', 'recommended', 'recommendation', 'recommendations', 'similar', 'also', 'carousel', 'upsell', 'crosssell', 'cross', 'recent', 'recently',
  'sponsored', 'sponsor', 'bundle', 'accessories', 'reco', 'suggestions', 'viewed',
]);
// "list price" is two words that are each harmless alone ("price-list", "list-unstyled").
const LIST_PRICE = /list[-_]?price/i;
const STRUCK_OUT = new Set(['del', 's', 'strike']);
const FURNITURE = new Set(['header', 'nav', 'footer', 'option', 'select']);
const SKIPPED_CONTAINERS = new Set([...STRUCK_OUT, ...FURNITURE]);
const MAX_PRICE_TEXT = 40;

/**
 * The price a shopper sees first: the first element (in reading order) whose class, id or
 * itemprop names a price, whose text is short and holds an amount, outside struck-out
 * text, old-price or instalment markup and blocks of other products. One with a currency
 * mark beats a bare number; a box showing two amounts defers to the price elements inside.
 */
export function domPrice(priceElements: readonly DomElement[]): ParsedPrice | undefined {
  let bare: ParsedPrice | undefined;
  for (const element of priceElements) {
    if (!shortTextOf(element, MAX_PRICE_TEXT)?.match(/\d/)) continue;
    if (!isCurrentPrice(element)) continue;
    const text = normalizeSpace(priceText(element, false)) + centsBeside(element);
    // "+20.00€" beside an option (a warranty, an installation) is what it adds, not the price.
    if (text.startsWith('+')) continue;
    // A box with an old and a new price: its inner price elements tell which is which,
    // else the amount that is not struck out.
    const severalAmounts = parsePrices(text).length > 1;
    if (severalAmounts && priceElements.some((other) => other !== element && contains(element, other))) continue;
    const price = parsePrice(severalAmounts ? priceText(element, true) : text);
    if (!price || Number(price.amount) === 0) continue;
    if (price.currency) return price;
    bare ??= price;
  }
  return bare;
}

function contains(ancestor: DomElement, node: DomElement): boolean {
  for (let parent = node.parentElement; parent; parent = parent.parentElement) if (parent === ancestor) return true;
  return false;
}

// Where a page sets the cents apart ("$12<sup>99</sup>", a "cents" span): two digits right after the units.
const CENTS_WORDS = new Set(['cents', 'cent', 'fraction', 'fractional', 'decimal', 'decimals', 'pennies']);

function isCentsPart(element: DomElement): boolean {
  return element.localName === 'sup' || hasClassWord(element, CENTS_WORDS);
}

/**
 * The cents a page sets beside a price element that holds only the currency and units
 * (IKEA: `<span class="price__nowrap">$<span>79</span></span><span class="price__decimal">.99</span>`),
 * as ".99" (or ",99" where the page writes that mark); else nothing.
 */
function centsBeside(element: DomElement): string {
  const next = element.nextElementSibling;
  if (!next || !isCentsPart(next) || !/\d\s*$/.test(element.textContent ?? '') || /[.,]\d{1,2}\s*$/.test(element.textContent ?? '')) return '';
  // With the page's own decimal mark when the part shows one ("€1.299" then ",00").
  const cents = /^([.,]?)\s*(\d{2})$/.exec(normalizeSpace(next.textContent));
  return cents ? `${cents[1] || '.'}${cents[2]}` : '';
}

// Units without a separator ("$229"): two digits set apart after them, closing the price element, are its cents.
const PLAIN_UNITS_AT_END = /(?:^|[^\d.,])\d+\s*$/;

/** Whether nothing but blank text follows the node in its parent. */
function endsElement(node: DomElement): boolean {
  for (let next = node.nextSibling; next; next = next.nextSibling) if (normalizeSpace(next.textContent)) return false;
  return true;
}

/**
 * The element's text with a set-apart cents part joined by a point ("$12<sup>99</sup>" →
 * "$12.99"; Best Buy Canada's "$229<span class="rightEndPrice">99</span>", two digits
 * closing the element after plain units, → "$229.99") and without footnote marks; with `currentOnly`, without struck-out or
 * old-price parts.
 */
function priceText(element: DomElement, currentOnly: boolean): string {
  let text = '';
  const visit = (node: DomElement) => {
    for (const child of node.childNodes) {
      if (!isElement(child)) {
        text += child.textContent ?? '';
        continue;
      }
      if (currentOnly && (SKIPPED_CONTAINERS.has(child.localName) || priceRoleWords(child, false).some((word) => NOT_CURRENT_PRICE.has(word)))) {
        text += ' ';
        continue;
      }
      const part = isCentsPart(child) || (node === element && endsElement(child)) ? normalizeSpace(child.textContent) : '';
      if (/^\d{2}$/.test(part) && (isCentsPart(child) ? /\d\s*$/ : PLAIN_UNITS_AT_END).test(text)) text = `${text.trimEnd()}.${part}`;
      // Any other number in superscript is a footnote mark ("$12.99<sup>1</sup>").
      else if (child.localName === 'sup' && /\d/.test(part) && !/^[.,]\d{2}$/.test(part)) text += ' ';
      else visit(child);
    }
  };
  visit(element);
  return text;
}

// A class that states what a box shows ("has-discount", "is-reduced", "with-savings") marks the reduced price, not an old one.
const STATE_CLASS = /^(?:has|is|with)(?:[-_]|[A-Z])/;
// A type style ("weight-regular", "font-regular", "fw-regular") says how a text looks, not which price it is (Nike sets it on both).
const TYPE_STYLE_CLASS = /(?:^|[-_])(?:font|fw|weight)[-_]/i;
// "discount" in the same class name as "price" ("c-price--lg--discount", "discount-price") is the reduced price to pay;
// alone ("discount", "discount-amount") it is the saving.
const DISCOUNTED_PRICE_CLASS = /price.*discount|discount.*price/i;

/**
 * The class and id words that say which price an element holds: without type styles, with
 * "discount" only where it names the saving, and (`withoutStates`) without state classes.
 */
function priceRoleWords(node: DomElement, withoutStates: boolean): string[] {
  return wordsOf(
    `${node.className ?? ''} ${node.id ?? ''}`
      .split(/\s+/)
      .filter((name) => !TYPE_STYLE_CLASS.test(name) && !(withoutStates && STATE_CLASS.test(name)))
      .map((name) => (DISCOUNTED_PRICE_CLASS.test(name) ? name.replace(/discount(?:ed)?/gi, ' ') : name))
      .join(' '),
  );
}

function isCurrentPrice(element: DomElement): boolean {
  let depth = 0;
  // The page's main content is no header, nav or footer even where a stray unclosed tag leaves it inside one in the parsed tree (Sweetwater).
  for (let node: DomElement | null = element; node && node.localName !== 'body' && node.localName !== 'main'; node = node.parentElement, depth++) {
    if (SKIPPED_CONTAINERS.has(node.localName)) return false;
    if (depth < 3 && (priceRoleWords(node, true).some((word) => NOT_CURRENT_PRICE.has(word)) || LIST_PRICE.test(`${node.className} ${node.id}`))) return false;
    if (hasClassWord(node, OTHER_PRODUCTS)) return false;
    // A link holding a picture and a price is another product's tile (Karmin's grid of hair tools above its own buy box).
    if (node.localName === 'a' && node.getAttribute('href') && node.querySelector('img')) return false;
  }
  return true;
}

/**
 * The amounts the page shows as former prices of its own product: struck out (`<del>`, `<s>`)
 * or named old / was / regular / compare-at / list price, outside the header, menus and other
 * products' blocks. A record whose price is one of them states the price before a sale.
 */
export function formerPrices(priceElements: readonly DomElement[]): Set<number> {
  const amounts = new Set<number>();
  for (const element of priceElements) {
    const text = shortTextOf(element, MAX_PRICE_TEXT);
    if (text && /\d/.test(text) && isFormerPrice(element)) for (const price of parsePrices(text)) amounts.add(Number(price.amount));
  }
  return amounts;
}

function isFormerPrice(element: DomElement): boolean {
  let former = false;
  let depth = 0;
  for (let node: DomElement | null = element; node && node.localName !== 'body' && node.localName !== 'main'; node = node.parentElement, depth++) {
    if (FURNITURE.has(node.localName) || hasClassWord(node, OTHER_PRODUCTS)) return false;
    if (STRUCK_OUT.has(node.localName)) former = true;
    else if (depth < 3 && (priceRoleWords(node, true).some((word) => FORMER_PRICE.has(word)) || LIST_PRICE.test(`${node.className} ${node.id}`))) former = true;
  }
  return former;
}

// Words that introduce the price in running text (en, de, fr, it, es, pt, nl, pl, ru, zh, ja, ko).
// Words stand alone in alphabetic scripts; CJK writes labels without spaces ("一次付清特價").
const PRICE_LABEL = /(?:(?:^|\s)(?:price|our price|now|preis|prix|prezzo|precio|preço|prijs|cena|цена)|價格|售價|特價|直購價|优惠价|价格|価格|가격|판매가)\s*[:：]?/i;

// Labels of a price that is not the one to pay: suggested, list, former, original; and the lowest
// price of the last 30 days that EU shops must print beside a reduced one (the Omnibus directive:
// "Last lowest price", "Niedrigster Preis", "Prix le plus bas", "Prezzo più basso", "Najniższa cena"…).
const OLD_PRICE_LABEL =
  /建議|建议|原價|原价|定價|定价|参考|list|was|uvp|rrp|msrp|statt|regular|original|avant|prima|antes|lowest|niedrigst|plus bas|più bass|najniższ|laagste|más baj|mais baix|nejnižší/i;

/** The first amount with a currency mark on a line that a price label starts (pages without price markup). */
export function labelledPrice(lines: readonly string[]): ParsedPrice | undefined {
  for (const line of lines) {
    if (line.length > 80) continue;
    const label = PRICE_LABEL.exec(line);
    if (!label) continue;
    const afterLabel = line.slice(label.index + label[0].length);
    // The words before the amount say which price it is, those after the label too ("The price was $1,199.99").
    if (OLD_PRICE_LABEL.test(line.slice(0, line.length - afterLabel.length + Math.max(0, afterLabel.search(/\d/))))) continue;
    const price = parsePrices(afterLabel).find((p) => p.currency && Number(p.amount) > 0);
    if (price) return price;
  }
  return undefined;
}

// How many lines below the heading a shop puts the price (name, rating, reviews, a badge, then the price) and its stock.
const LINES_UNDER_HEADING = 15;
const MAX_AMOUNT_LINE = 30;
// A tax note after the amount ("€49.99 VAT included", "12,99 € inkl. 19% MwSt.", "29,90 € TTC", "(IVA incluida)"), as EU shops must print it.
const TAX_NOTE = /\s+\(?[\p{L}.\s]{0,20}(?:\d{1,2}(?:[.,]\d)?\s?%\s*)?\b(?:VAT|tax|MwSt|USt|TVA|TTC|IVA|BTW|DPH|ÁFA|PDV|moms|alv|GST)\b[\p{L}.\s]{0,20}\)?\s*$/iu;

/** The lines right under the page's heading (its text as a line of the page): where a shop puts the product's price and stock. */
export function linesUnderHeading(lines: readonly string[], heading: string): readonly string[] {
  // A heading of block parts ("Bershka" then "Faux leather jacket - black": Zalando's brand and name) is as many lines.
  const headingLines = heading ? heading.split('\n') : [];
  for (let at = lines.indexOf(headingLines[0]); headingLines.length && at >= 0; at = lines.indexOf(headingLines[0], at + 1)) {
    if (headingLines.every((line, i) => lines[at + i] === line)) return lines.slice(at + headingLines.length, at + headingLines.length + LINES_UNDER_HEADING);
  }
  return [];
}

/**
 * The first amount on a line of amounts with currency marks only ("$110", "€25 €49") among
 * the lines right under the page's heading: shops whose classes are utilities or hashes
 * (Allbirds, Uplift, Kinetic Labs) name no price, but put it under the product's name.
 */
export function priceUnderHeading(lines: readonly string[], heading: string): ParsedPrice | undefined {
  for (const line of linesUnderHeading(lines, heading)) {
    const amounts = line.replace(TAX_NOTE, '');
    const price = amounts.length <= MAX_AMOUNT_LINE ? currencyAmountsOnly(amounts)[0] : undefined;
    if (price && Number(price.amount) > 0) return price;
  }
  return undefined;
}

/** The currency mark the page writes beside this amount somewhere in its text ("₽" where the record says "RUB"). */
export function shownCurrencyFor(amount: string, lines: readonly string[]): string | undefined {
  const value = Number(amount);
  for (const line of lines) {
    if (line.length > 80 || !/\d/.test(line)) continue;
    const shown = parsePrices(line).find((p) => p.currency && Number(p.amount) === value);
    if (shown) return shown.currency;
  }
  return undefined;
}
