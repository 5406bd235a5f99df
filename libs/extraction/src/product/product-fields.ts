import { AggregateRating, Product } from '../extraction.types';
import { DomElement, normalizeSpace, resolveUrl, textOf } from '../dom';
import { propertyRecords, propertyText, propertyValues, StructuredRecord } from '../structured-data';

/** Image urls of the product record (strings or ImageObjects), absolute, without repeats. */
export function structuredImages(product: StructuredRecord | undefined, baseUrl: string): string[] {
  const urls = propertyValues(product, 'image').map((value) =>
    typeof value === 'string' ? value : propertyText(value, 'contentUrl') ?? propertyText(value, 'url') ?? propertyText(value, '@id'),
  );
  return unique(urls.map((url) => resolveUrl(url, baseUrl)));
}

/** Images of the product's gallery (see page-scan.ts), absolute, without repeats. */
export function galleryImages(images: readonly DomElement[], baseUrl: string): string[] {
  return unique(images.map((img) => resolveUrl(img.getAttribute('data-zoom-image') ?? img.getAttribute('data-src') ?? img.getAttribute('src'), baseUrl)));
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

const MAX_PROPERTIES = 100;

/** Name/value pairs: the record's additionalProperty, else the two-cell rows and dt/dd pairs of spec tables and lists. */
export function additionalProperties(product: StructuredRecord | undefined, specLists: readonly DomElement[]): Product['additionalProperty'] {
  const structured = propertyRecords(product, 'additionalProperty')
    .map((p) => ({ name: propertyText(p, 'name') ?? '', value: propertyText(p, 'value') ?? '' }))
    .filter((p) => p.name && p.value);
  if (structured.length) return structured;
  const pairs: { name: string; value: string }[] = [];
  for (const container of specLists) {
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
