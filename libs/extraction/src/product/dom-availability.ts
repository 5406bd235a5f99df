import { classWords, DomDocument, DomElement, hasClassWord, normalizeSpace } from '../dom';
import { ADD_TO_CART, Availability, availabilityFromText } from './availability';
import { OTHER_PRODUCTS } from './dom-price';

const STOCK_WORDS = new Set(['availability', 'available', 'stock', 'instock', 'outofstock', 'inventory', 'avail', 'lieferbarkeit', 'disponibilite', 'disponibilidad']);

/**
 * What the page's stock notice says: the first element whose class or id names availability
 * or stock and whose short text reads as in or out of stock.
 */
export function domAvailability(document: DomDocument): Availability | undefined {
  for (const element of document.querySelectorAll('[class*=avail],[id*=avail],[class*=stock],[id*=stock],[class*=Avail],[id*=Avail],[class*=Stock],[id*=Stock]')) {
    if (!hasClassWord(element, STOCK_WORDS) || inOtherProducts(element)) continue;
    const availability = availabilityFromText(normalizeSpace(element.textContent));
    if (availability) return availability;
  }
  return undefined;
}

/** Enabled buttons (or submit inputs) that add a product to a cart, outside blocks of other products. */
export function addToCartButtons(document: DomDocument): number {
  let count = 0;
  for (const element of document.querySelectorAll('button, input[type=submit], input[type=button], a[role=button], a[class*=button], a[class*=btn]')) {
    const label = element.localName === 'input' ? element.getAttribute('value') : element.textContent;
    if (label && label.length < 80 && ADD_TO_CART.test(label) && !isDisabled(element) && !inOtherProducts(element)) count++;
  }
  return count;
}

function inOtherProducts(element: DomElement): boolean {
  for (let node = element.parentElement; node && node.localName !== 'body'; node = node.parentElement) if (hasClassWord(node, OTHER_PRODUCTS)) return true;
  return false;
}

function isDisabled(element: DomElement): boolean {
  return element.hasAttribute('disabled') || element.getAttribute('aria-disabled') === 'true' || classWords(element).includes('disabled');
}
