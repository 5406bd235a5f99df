import { DomElement, DomNode, isElement } from '../dom';

/** The elements the product heuristics look at, gathered in one walk over the page. */
export interface PageScan {
  /** Elements whose class, id or itemprop names a price, in document order. */
  priceElements: DomElement[];
  /** Elements whose class or id names availability or stock. */
  stockElements: DomElement[];
  /** Buttons, submit inputs and button-like links. */
  buttons: DomElement[];
  /** Images inside a gallery / product image / zoom container. */
  galleryImages: DomElement[];
  /** The first element whose class, id or aria-label says breadcrumb. */
  breadcrumbTrail?: DomElement;
  /** Tables and definition lists inside spec/detail/attribute/feature sections. */
  specLists: DomElement[];
}

const GALLERY_PATTERN = /gallery|zoom|product-?image|main-?image/i;
const SPEC_PATTERN = /spec|detail|attribute|feature|characteristic|technical|propert|datasheet|merkmal|caracter|kenmerk|eigenschaft/i;
const STOCK = /avail|stock|inventory|disponib|lieferbar|voorraad|discontinu/i;
// Any word the scan cares about: most elements match none and are passed by one test.
const ANY_PATTERN = new RegExp(`price|${STOCK.source}|breadcrumb|button|btn|${SPEC_PATTERN.source}|${GALLERY_PATTERN.source}`, 'i');
const PRICE = /price/i;
const BUTTON = /button|btn/i;
const BREADCRUMB = /breadcrumb/i;
// How far above a table or list its spec section may start.
const SPEC_DEPTH = 5;

export function scanPage(root: DomElement): PageScan {
  const scan: PageScan = { priceElements: [], stockElements: [], buttons: [], galleryImages: [], specLists: [] };
  visit(root, scan, false, Infinity);
  return scan;
}

/** Records the element, then its children; `specDistance` counts the levels below the nearest spec section. */
function visit(element: DomElement, scan: PageScan, inGallery: boolean, specDistance: number): void {
  const tag = element.localName;
  const className = element.getAttribute('class') ?? '';
  const id = element.getAttribute('id') ?? '';
  const named = (className !== '' && ANY_PATTERN.test(className)) || (id !== '' && ANY_PATTERN.test(id));
  if ((named && names(PRICE, className, id)) || element.getAttribute('itemprop') === 'price') scan.priceElements.push(element);
  if ((named && names(STOCK, className, id))) scan.stockElements.push(element);
  if (tag === 'button' || (tag === 'input' && /^(submit|button)$/i.test(element.getAttribute('type') ?? '')) || (tag === 'a' && (element.getAttribute('role') === 'button' || (named && names(BUTTON, className, id))))) {
    scan.buttons.push(element);
  }
  if (tag === 'img' && inGallery) scan.galleryImages.push(element);
  if (!scan.breadcrumbTrail && ((named && names(BREADCRUMB, className, id)) || BREADCRUMB.test(element.getAttribute('aria-label') ?? ''))) scan.breadcrumbTrail = element;
  const specHere = (named && names(SPEC_PATTERN, className, id)) ? 0 : specDistance + 1;
  if ((tag === 'table' || tag === 'dl') && specHere <= SPEC_DEPTH) scan.specLists.push(element);
  const galleryHere = inGallery || (named && names(GALLERY_PATTERN, className, id));
  for (let child: DomNode | null = element.firstChild; child; child = child.nextSibling) if (isElement(child)) visit(child, scan, galleryHere, specHere);
}

function names(pattern: RegExp, className: string, id: string): boolean {
  return pattern.test(className) || pattern.test(id);
}
