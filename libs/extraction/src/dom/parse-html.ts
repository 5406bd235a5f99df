import { parseHTML } from 'linkedom';
import { DomDocument } from './dom-node';

/**
 * Markup no extractor reads: scripts (JSON-LD kept), styles, inline SVG and comments. Cutting it
 * from the string before parsing leaves about a third of a typical page to parse and halves
 * the time; a regex is safe here because these elements' contents are raw text.
 */
const INERT_MARKUP = /<script\b(?![^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script\s*>|<style\b[^>]*>[\s\S]*?<\/style\s*>|<svg\b[^>]*>[\s\S]*?<\/svg\s*>|<!--[\s\S]*?-->/gi;

export function parseDocument(html: string): DomDocument {
  return parseHTML(html.replace(INERT_MARKUP, '')).document as DomDocument;
}
