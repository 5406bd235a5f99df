import { parseHTML } from 'linkedom';
import { DomDocument } from './dom.types';

/**
 * Parses a page with linkedom. linkedom builds no implicit <html>/<body>: a fragment
 * without them would nest oddly, so such input is wrapped in a document first.
 */
export function parsePage(html: string): DomDocument {
  const source = /<html[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`;
  return parseHTML(source).document as unknown as DomDocument;
}
