import { decodeHTMLStrict } from 'entities';
import { DomElement, DomNode, isElement, TEXT_NODE } from './dom.types';

/** Collapses every run of whitespace (no-break and zero-width spaces included) to one space. */
export function normalizeSpace(text: string | null | undefined): string {
  if (!text) return '';
  return text.replace(/[\s\u00a0\u200b\u200e\u200f\ufeff]+/g, ' ').trim();
}

/** The node's text with whitespace collapsed. */
export function textOf(node: DomNode | null | undefined): string {
  return node ? normalizeSpace(node.textContent) : '';
}

/**
 * Decodes the HTML entities that pages leave inside JSON-LD strings and meta values: every
 * named and numeric one, each only with its semicolon (a URL's `&copy=1` stays as written),
 * a code point out of range as U+FFFD.
 */
export function decodeEntities(text: string): string {
  return decodeHTMLStrict(text);
}

// Elements that start a line of their own when a page is read as text.
const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'ul', 'option', 'select', 'button',
]);
const SKIPPED_TAGS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'title', 'iframe', 'select', 'option']);

/**
 * The element's text laid out as a reader sees it: one line per block (paragraph, list item,
 * table row, definition term…), table cells and inline elements separated by `inlineGap`
 * (a space; '' where markup splits words, as in headings: "C<span>ycle</span>").
 */
export function layoutText(root: DomNode, inlineGap = ' '): string {
  const lines: string[] = [];
  let line: string[] = [];
  // Line breaks in the source are spaces to a reader (normalizeSpace); only blocks start lines.
  const endLine = () => {
    if (!line.length) return;
    const text = normalizeSpace(line.join(''));
    if (text) lines.push(text);
    line = [];
  };
  const visit = (node: DomNode) => {
    if (node.nodeType === TEXT_NODE) {
      line.push(node.textContent ?? '');
      return;
    }
    if (!isElement(node) || SKIPPED_TAGS.has(node.localName)) return;
    const block = BLOCK_TAGS.has(node.localName);
    if (block) endLine();
    else line.push(inlineGap);
    for (let child = node.firstChild; child; child = child.nextSibling) visit(child);
    if (block) endLine();
    else line.push(inlineGap);
  };
  visit(root);
  endLine();
  return lines.join('\n');
}

/** The element's text with whitespace collapsed, or undefined as soon as it passes `max` characters (cheap on big containers). */
export function shortTextOf(root: DomNode, max: number): string | undefined {
  let text = '';
  const stack: DomNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.nodeType === TEXT_NODE) {
      text += node.textContent ?? '';
      // Indentation can be most of the raw text: collapse it before judging the length.
      if (text.length > max * 4) {
        text = text.replace(/[\s\u00a0\u200b\u200e\u200f\ufeff]+/g, ' ');
        if (text.trim().length > max) return undefined;
      }
      continue;
    }
    const children: DomNode[] = [];
    for (let child = node.firstChild; child; child = child.nextSibling) children.push(child);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  const normalized = normalizeSpace(text);
  return normalized.length > max ? undefined : normalized;
}

/** The texts that follow an element in document order (its own subtree skipped), each with the text before it. */
export function textsAfter(start: DomElement, limit: number): [string, string][] {
  const texts: [string, string][] = [];
  let previous = '';
  let node = nextInOrder(start, true);
  while (node && texts.length < limit) {
    if (node.nodeType === TEXT_NODE) {
      const text = normalizeSpace(node.textContent);
      if (text) {
        texts.push([text, previous]);
        previous = text;
      }
    }
    node = nextInOrder(node, !isElement(node));
  }
  return texts;
}

/** The texts that come before an element in document order, nearest first (up to `limit`). */
export function textsBefore(start: DomElement, limit: number): string[] {
  const texts: string[] = [];
  // Last-to-first through a subtree: its texts in reverse document order.
  const visitBackwards = (node: DomNode) => {
    if (node.nodeType === TEXT_NODE) {
      const text = normalizeSpace(node.textContent);
      if (text) texts.push(text);
      return;
    }
    if (!isElement(node) || SKIPPED_TAGS.has(node.localName)) return;
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0 && texts.length < limit; i--) visitBackwards(children[i]);
  };
  for (let node: DomElement = start; node.parentElement && texts.length < limit; node = node.parentElement) {
    const siblings = node.parentElement.childNodes;
    for (let i = siblings.indexOf(node) - 1; i >= 0 && texts.length < limit; i--) visitBackwards(siblings[i]);
  }
  return texts.slice(0, limit);
}

function nextInOrder(node: DomNode, skipChildren: boolean): DomNode | null {
  if (!skipChildren && node.firstChild) return node.firstChild;
  for (let current: DomNode | null = node; current; current = current.parentElement) if (current.nextSibling) return current.nextSibling;
  return null;
}
