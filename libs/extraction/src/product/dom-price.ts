import { DomDocument, DomElement, hasClassWord, normalizeSpace } from '../dom';
import { ParsedPrice, parsePrice } from './price';

// Class/id words of prices that are not the one to pay now: old, list and unit prices, savings, shipping, instalments.
const NOT_CURRENT_PRICE = new Set([
  'old', 'was', 'before', 'strike', 'strikethrough', 'crossed', 'regular', 'list', 'rrp', 'uvp', 'msrp', 'original', 'compare', 'previous', 'reference',
  'saving', 'savings', 'save', 'discount', 'percent', 'unit', 'per', 'shipping', 'delivery', 'installment', 'instalment', 'monthly', 'finance', 'credit',
  'range', 'filter', 'slider', 'min', 'max',
]);
// Containers of other products than the page's own.
export const OTHER_PRODUCTS = new Set([
  'related', 'recommend', 'recommended', 'recommendation', 'recommendations', 'similar', 'also', 'carousel', 'upsell', 'crosssell', 'cross', 'recent', 'recently',
  'sponsored', 'sponsor', 'bundle', 'accessories', 'reco', 'suggestions', 'viewed',
]);
const SKIPPED_CONTAINERS = new Set(['del', 's', 'strike', 'header', 'nav', 'footer', 'option', 'select']);
const MAX_PRICE_TEXT = 40;

/**
 * The price a shopper sees first: the first element (in reading order) whose class, id or
 * itemprop names a price, whose text is short and holds an amount, outside struck-out
 * text, old-price or instalment markup and blocks of other products. One with a currency
 * mark beats a bare number.
 */
export function domPrice(document: DomDocument): ParsedPrice | undefined {
  let bare: ParsedPrice | undefined;
  for (const element of document.querySelectorAll('[class*=price],[class*=Price],[id*=price],[id*=Price],[itemprop=price]')) {
    const text = normalizeSpace(element.textContent);
    if (!text || text.length > MAX_PRICE_TEXT || !/\d/.test(text)) continue;
    if (!isCurrentPrice(element)) continue;
    const price = parsePrice(text);
    if (!price || Number(price.amount) === 0) continue;
    if (price.currency) return price;
    bare ??= price;
  }
  return bare;
}

function isCurrentPrice(element: DomElement): boolean {
  let depth = 0;
  for (let node: DomElement | null = element; node && node.localName !== 'body'; node = node.parentElement, depth++) {
    if (SKIPPED_CONTAINERS.has(node.localName)) return false;
    if (depth < 3 && hasClassWord(node, NOT_CURRENT_PRICE)) return false;
    if (hasClassWord(node, OTHER_PRODUCTS)) return false;
  }
  return true;
}
