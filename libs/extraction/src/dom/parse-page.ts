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

// One pass, left to right: a comment inside a kept JSON-LD script is consumed with the script.
const NON_CONTENT = /<script\b([^>]*)>[\s\S]*?<\/script\s*>|<style\b[^>]*>[\s\S]*?<\/style\s*>|<svg\b[^>]*>[\s\S]*?<\/svg\s*>|<!--[\s\S]*?-->/gi;

export function withoutNonContent(html: string): string {
  return html.replace(NON_CONTENT, (match, scriptAttributes: string | undefined) =>
    scriptAttributes !== undefined && /application\/ld\+json/i.test(scriptAttributes) ? match : '',
  );
}
