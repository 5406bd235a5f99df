import { Breadcrumb } from '../extraction.types';
import { DomDocument, DomElement } from './dom.types';
import { resolveUrl } from './url';
import { normalizeSpace } from './text';

/**
 * The trail of the page's visible breadcrumb (an element whose class, id or aria-label says
 * "breadcrumb"): its links in order, and a last unlinked item (the current page) when present.
 */
export function domBreadcrumbs(document: DomDocument, baseUrl: string): Breadcrumb[] | undefined {
  const trail = document.querySelector('[class*=breadcrumb],[id*=breadcrumb],[class*=Breadcrumb],[id*=Breadcrumb],[aria-label*=breadcrumb],[aria-label*=Breadcrumb]');
  return trail ? breadcrumbsIn(trail, baseUrl) : undefined;
}

/** The crumbs of a breadcrumb element: its list items (or links) in order. */
export function breadcrumbsIn(trail: DomElement, baseUrl: string): Breadcrumb[] | undefined {
  const crumbs: Breadcrumb[] = [];
  const items = trail.querySelectorAll('li');
  for (const item of items.length ? items : trail.querySelectorAll('a')) {
    const anchor = item.localName === 'a' ? item : item.querySelector('a[href]');
    const name = normalizeSpace((anchor ?? item).textContent);
    const link = resolveUrl(anchor?.getAttribute('href'), baseUrl);
    if (name || link) crumbs.push({ ...(name && { name }), ...(link && { link }) });
  }
  return crumbs.length ? crumbs : undefined;
}
