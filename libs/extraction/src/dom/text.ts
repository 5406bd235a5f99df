import { DomNode, isElement, TEXT_NODE } from './dom.types';

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

// Elements that start a line of their own when a page is read as text.
const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'ul', 'option', 'select', 'button',
]);
const LINE_BREAK = '\u0000';
const SKIPPED_TAGS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'title', 'iframe', 'select', 'option']);

/**
 * The element's text laid out as a reader sees it: one line per block (paragraph, list item,
 * table row, definition term…), table cells and inline elements separated by a space.
 */
export function layoutText(root: DomNode): string {
  const parts: string[] = [];
  const visit = (node: DomNode) => {
    if (node.nodeType === TEXT_NODE) {
      parts.push(node.textContent ?? '');
      return;
    }
    if (!isElement(node) || SKIPPED_TAGS.has(node.localName)) return;
    const edge = BLOCK_TAGS.has(node.localName) ? LINE_BREAK : ' ';
    parts.push(edge);
    for (let child = node.firstChild; child; child = child.nextSibling) visit(child);
    parts.push(edge);
  };
  visit(root);
  // Line breaks in the source are spaces to a reader (normalizeSpace); only blocks start lines.
  return parts
    .join('')
    .split(LINE_BREAK)
    .map(normalizeSpace)
    .filter(Boolean)
    .join('\n');
}

/** The element's text with whitespace collapsed, or undefined as soon as it passes `max` characters (cheap on big containers). */
export function shortTextOf(root: DomNode, max: number): string | undefined {
  let text = '';
  const stack: DomNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.nodeType === TEXT_NODE) {
      text += node.textContent ?? '';
      if (text.length > max * 4) return undefined;
      continue;
    }
    const children: DomNode[] = [];
    for (let child = node.firstChild; child; child = child.nextSibling) children.push(child);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  const normalized = normalizeSpace(text);
  return normalized.length > max ? undefined : normalized;
}
