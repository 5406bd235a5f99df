import { DomNode } from './dom.types';

/** Collapses every run of whitespace (no-break and zero-width spaces included) to one space. */
export function normalizeSpace(text: string | null | undefined): string {
  if (!text) return '';
  return text.replace(/[\s\u00a0\u200b\u200e\u200f\ufeff]+/g, ' ').trim();
}

/** The node's text with whitespace collapsed. */
export function textOf(node: DomNode | null | undefined): string {
  return node ? normalizeSpace(node.textContent) : '';
}

/** Decodes the few HTML entities that pages leave inside JSON-LD strings and meta values. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (_m, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return NAMED_ENTITIES[lower];
  });
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
