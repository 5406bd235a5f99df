import { parseHTML } from 'linkedom';
import { DomDocument } from './dom.types';

/**
 * Parses a page with linkedom, after dropping what no extractor reads (scripts other than
 * JSON-LD, styles, inline SVG, comments): that is most of a shop page's bytes and halves
 * the parse time. linkedom builds no implicit <html>/<body>, so a fragment is wrapped first.
 */
export function parsePage(html: string): DomDocument {
  const lean = withoutNonContent(html);
  const source = /<html[\s>]/i.test(lean) ? lean : `<!DOCTYPE html><html><head></head><body>${lean}</body></html>`;
  return parseHTML(source).document as unknown as DomDocument;
}

// One pass, left to right: a JSON-LD script is matched first and kept whole ($1), so a
// comment inside it is consumed with it; every other match is dropped. A replacement
// string, not a function, keeps V8 on its fast path.
const NON_CONTENT = /(<script\b[^>]*application\/ld\+json[^>]*>[\s\S]*?<\/script\s*>)|<script\b[^>]*>[\s\S]*?<\/script\s*>|<style\b[^>]*>[\s\S]*?<\/style\s*>|<svg\b[^>]*>[\s\S]*?<\/svg\s*>|<!--[\s\S]*?-->/gi;

export function withoutNonContent(html: string): string {
  return html.replace(NON_CONTENT, '$1');
}

// The same pass, also dropping the attributes shops fill most that no product extractor
// reads: inline styles, event handlers, and data-* other than the lazy-image sources.
// (The article engine reads style to find hidden blocks, so it keeps the plain pass.)
const NON_CONTENT_OR_UNREAD_ATTRIBUTE = new RegExp(
  `${NON_CONTENT.source}|\\s(?:style|on[a-z]+|data-(?!src|original|lazy-src|zoom-image)[\\w-]*)\\s*=\\s*(?:"[^"]*"|'[^']*')`,
  'gi',
);

export function withoutNonContentOrUnreadAttributes(html: string): string {
  return html.replace(NON_CONTENT_OR_UNREAD_ATTRIBUTE, '$1');
}
