import { Breadcrumb } from '../extraction.types';
import { resolveUrl } from '../dom';
import { findRecords, propertyRecords, propertyText } from './query';
import { StructuredData, StructuredRecord } from './structured-data.types';

/** The trail of the page's first BreadcrumbList with items, ordered by position; undefined without one. */
export function structuredBreadcrumbs(data: StructuredData, baseUrl: string): Breadcrumb[] | undefined {
  for (const list of findRecords(data, ['BreadcrumbList'])) {
    const items = propertyRecords(list, 'itemListElement')
      .map((item, index) => ({ item, position: Number(propertyText(item, 'position')) || index + 1 }))
      .sort((a, b) => a.position - b.position)
      .map(({ item }) => toBreadcrumb(item, baseUrl))
      .filter((crumb): crumb is Breadcrumb => crumb !== undefined);
    if (items.length) return items;
  }
  return undefined;
}

function toBreadcrumb(listItem: StructuredRecord, baseUrl: string): Breadcrumb | undefined {
  const target = propertyRecords(listItem, 'item')[0];
  const name = propertyText(listItem, 'name') ?? propertyText(target, 'name');
  const href = target ? propertyText(target, '@id') ?? propertyText(target, 'url') : propertyText(listItem, 'item') ?? propertyText(listItem, 'url');
  const link = resolveUrl(href, baseUrl);
  if (!name && !link) return undefined;
  return { ...(name && { name }), ...(link && { link }) };
}
