import { DomDocument } from './dom.types';

/** The address relative links resolve against: the page url, or its <base href>. */
export function documentBaseUrl(document: DomDocument, pageUrl: string): string {
  // <base> belongs in <head>: looking there spares a walk over the whole page.
  const baseHref = (document.head ?? document.documentElement).querySelector('base[href]')?.getAttribute('href');
  return (baseHref && resolveUrl(baseHref, pageUrl)) || pageUrl;
}

/** An absolute http(s) address, or undefined for empty, javascript:, data: or malformed links. */
export function resolveUrl(href: string | null | undefined, baseUrl: string): string | undefined {
  const trimmed = href?.trim();
  if (!trimmed) return undefined;
  try {
    const url = new URL(trimmed, baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
