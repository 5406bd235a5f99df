import { classWords, DomElement, hasClassWord, shortTextOf } from '../dom';
import { ADD_TO_CART, Availability, availabilityFromText, isOutOfStockNotice } from './availability';
import { linesUnderHeading, OTHER_PRODUCTS } from './dom-price';

const MAX_NOTICE_TEXT = 200;
// "restock" names a back-in-stock alert (Squarespace's product-restock-notification); "discontinued", schema.org's DiscontinuedItem as a class (iHerb).
const STOCK_WORDS = new Set([
  'availability', 'available', 'stock', 'instock', 'outofstock', 'inventory', 'avail', 'restock', 'discontinued',
  'lieferbarkeit', 'disponibilite', 'disponibilidad', 'disponibilita', 'disponibilidade', 'voorraad',
]);

/**
 * What the page's stock notice says: the first element whose class or id names availability
 * or stock and whose short text reads as in or out of stock.
 */
export function domAvailability(stockElements: readonly DomElement[]): Availability | undefined {
  for (const element of stockElements) {
    if (!hasClassWord(element, STOCK_WORDS) || inOtherProducts(element)) continue;
    const text = shortTextOf(element, MAX_NOTICE_TEXT);
    const availability = text && availabilityFromText(text);
    if (availability) return availability;
  }
  return undefined;
}

// A notice is a few words ("Sold out", "Currently unavailable"); longer lines are prose that may name stock in passing.
const MAX_NOTICE_LINE = 40;

/**
 * Whether a line right under the page's heading says the product is out of stock, for shops
 * whose classes name no stock (utility or hashed classes: Kinetic Labs' `<p class="p1dqz9ym">Out
 * of stock</p>`). Only that way: "Available …" under a heading is as often a documentation
 * page's section ("Available middleware") or a service's ("Available Anytime").
 */
export function soldOutUnderHeading(lines: readonly string[], heading: string): boolean {
  return linesUnderHeading(lines, heading).some((line) => line.length <= MAX_NOTICE_LINE && isOutOfStockNotice(line));
}

/** Enabled buttons (or submit inputs) that add a product to a cart, outside blocks of other products. */
export function addToCartButtons(buttons: readonly DomElement[]): number {
  return buttons.filter((element) => isAddToCart(element) && !isDisabled(element)).length;
}

/**
 * Whether a disabled button still says "Add to cart": shop themes disable it until a variant is
 * chosen or their scripts have loaded (Helly Hansen, Huel, iFixit's "Loading...Add to cart",
 * eBay) and relabel it ("Sold out") when there is no stock.
 */
export function disabledAddToCart(buttons: readonly DomElement[]): boolean {
  return buttons.some((element) => isDisabled(element) && isAddToCart(element));
}

function isAddToCart(element: DomElement): boolean {
  const label = buttonLabel(element);
  return !!label && ADD_TO_CART.test(label) && availabilityFromText(label) !== 'OutOfStock' && !inOtherProducts(element);
}

/**
 * Whether the page's own buttons say it is sold out ("Sold out", "Ausverkauft" where the
 * cart button would be; shop themes print that when a product has no stock markup).
 */
export function soldOutButton(buttons: readonly DomElement[]): boolean {
  return buttons.some((element) => {
    const label = buttonLabel(element);
    return !!label && availabilityFromText(label) === 'OutOfStock' && !inOtherProducts(element);
  });
}

const MAX_BUTTON_LABEL = 80;

/** What a button says: an input's value, else its text; nothing when that is long (not a button's label). */
function buttonLabel(element: DomElement): string | undefined {
  const label = element.localName === 'input' ? element.getAttribute('value') ?? undefined : shortTextOf(element, MAX_BUTTON_LABEL);
  return label !== undefined && label.length < MAX_BUTTON_LABEL ? label : undefined;
}

// Sliders hold other products' cards and their buy buttons (My Bird Buddy's "Buy Now" under a sold-out feeder); a product's own gallery holds no buttons.
const OTHER_PRODUCTS_OR_SLIDER = new Set([...OTHER_PRODUCTS, 'slider', 'slides', 'swiper', 'glide', 'splide', 'slick']);

function inOtherProducts(element: DomElement): boolean {
  for (let node = element.parentElement; node && node.localName !== 'body'; node = node.parentElement) if (hasClassWord(node, OTHER_PRODUCTS_OR_SLIDER)) return true;
  return false;
}

function isDisabled(element: DomElement): boolean {
  return element.hasAttribute('disabled') || element.getAttribute('aria-disabled') === 'true' || classWords(element).includes('disabled');
}
