import { AggregateRating, Product } from '../extraction.types';
import { DomDocument, DomElement, normalizeSpace, resolveUrl, textOf } from '../dom';
import { propertyRecords, propertyText, propertyValues, StructuredRecord } from '../structured-data';

/** Image urls of the product record (strings or ImageObjects), absolute, without repeats. */
export function structuredImages(product: StructuredRecord | undefined, baseUrl: string): string[] {
  const urls = propertyValues(product, 'image').map((value) =>
    typeof value === 'string' ? value : propertyText(value, 'contentUrl') ?? propertyText(value, 'url') ?? propertyText(value, '@id'),
  );
  return unique(urls.map((url) => resolveUrl(url, baseUrl)));
}

/** Images shown in the product's gallery: <img> inside an element whose class or id says gallery, product image or zoom. */
export function galleryImages(document: DomDocument, baseUrl: string): string[] {
  const images = document.querySelectorAll('[class*=gallery] img,[id*=gallery] img,[class*=product-image] img,[class*=productImage] img,[id*=main-image] img,[id*=mainImage] img,[class*=zoom] img');
  return unique(images.map((img: DomElement) => resolveUrl(img.getAttribute('data-zoom-image') ?? img.getAttribute('data-src') ?? img.getAttribute('src'), baseUrl)));
}

export function unique(values: (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => !!v))];
}

/** Plain text of a description that may carry HTML markup (JSON-LD often does). */
export function plainText(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const plain = normalizeSpace(text.replace(/<br\s*\/?>|<\/p>|<\/li>/gi, '\n').replace(/<[^>]+>/g, ' '));
  return plain || undefined;
}

export function aggregateRating(product: StructuredRecord | undefined): AggregateRating | undefined {
  const rating = propertyRecords(product, 'aggregateRating')[0];
  if (!rating) return undefined;
  const ratingValue = decimal(propertyText(rating, 'ratingValue'));
  const bestRating = decimal(propertyText(rating, 'bestRating'));
  const reviewCount = integer(propertyText(rating, 'reviewCount') ?? propertyText(rating, 'ratingCount'));
  const result: AggregateRating = {
    ...(ratingValue !== undefined && { ratingValue }),
    ...(bestRating !== undefined && { bestRating }),
    ...(reviewCount !== undefined && { reviewCount }),
  };
  return Object.keys(result).length ? result : undefined;
}

function decimal(text: string | undefined): number | undefined {
  const value = text ? Number(text.replace(',', '.').replace(/[^\d.]/g, '')) : NaN;
  return text && Number.isFinite(value) ? value : undefined;
}

function integer(text: string | undefined): number | undefined {
  const value = text ? parseInt(text.replace(/[^\d]/g, ''), 10) : NaN;
  return Number.isFinite(value) ? value : undefined;
}

const SPEC_WORDS = /spec|detail|attribute|feature|characteristic|technical|propert|datasheet|merkmal|caracter|kenmerk|eigenschaft/i;
const MAX_PROPERTIES = 100;

/** Name/value pairs: the record's additionalProperty, else the rows of spec tables and lists. */
export function additionalProperties(product: StructuredRecord | undefined, document: DomDocument): Product['additionalProperty'] {
  const structured = propertyRecords(product, 'additionalProperty')
    .map((p) => ({ name: propertyText(p, 'name') ?? '', value: propertyText(p, 'value') ?? '' }))
    .filter((p) => p.name && p.value);
  if (structured.length) return structured;
  const pairs: { name: string; value: string }[] = [];
  for (const container of document.querySelectorAll('table, dl')) {
    if (!inSpecSection(container)) continue;
    if (container.localName === 'table') {
      for (const row of container.querySelectorAll('tr')) {
        const cells = row.children.filter((c) => c.localName === 'th' || c.localName === 'td');
        if (cells.length === 2) pairs.push({ name: textOf(cells[0]).replace(/\s*:$/, ''), value: textOf(cells[1]) });
      }
    } else {
      for (const term of container.querySelectorAll('dt')) {
        const definition = term.nextElementSibling;
        if (definition?.localName === 'dd') pairs.push({ name: textOf(term).replace(/\s*:$/, ''), value: textOf(definition) });
      }
    }
    if (pairs.length >= MAX_PROPERTIES) break;
  }
  const valid = pairs.filter((p) => p.name && p.value && p.name.length <= 80 && p.value.length <= 300).slice(0, MAX_PROPERTIES);
  return valid.length ? valid : undefined;
}

function inSpecSection(element: DomElement): boolean {
  for (let node: DomElement | null = element, depth = 0; node && depth < 6; node = node.parentElement, depth++) {
    if (SPEC_WORDS.test(`${node.className} ${node.id}`)) return true;
  }
  return false;
}
