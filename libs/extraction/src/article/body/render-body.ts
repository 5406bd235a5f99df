import { DomElement, DomNode, TEXT_NODE, isElement } from '../../dom';
import { classWords } from './boilerplate';
import { BLOCK_TAGS } from './main-content';

/** Tags kept in articleBodyRaw; any other element is unwrapped to its children. */
const RAW_TAGS = new Set([
  'p', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'blockquote', 'pre', 'code', 'figure', 'figcaption',
  'img', 'a', 'strong', 'em', 'b', 'i', 'u', 'sub', 'sup', 'br', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'caption',
  'video', 'audio', 'source', 'q', 'cite', 'time', 'mark', 'small', 'abbr',
]);
const RAW_ATTRIBUTES: Record<string, string[]> = { a: ['href'], img: ['src', 'alt'], video: ['src'], audio: ['src'], source: ['src', 'type'] };
const VOID_TAGS = new Set(['img', 'br', 'hr', 'source']);
const HEADING_AS_PARAGRAPH = new Set(['h1']);

/**
 * Not article text: the title (shown above the body), and image captions, credits and
 * galleries, which annotated article bodies leave out (the cleaned HTML keeps them).
 */
const NOT_TEXT_TAGS = new Set(['h1', 'figure', 'figcaption']);
const NOT_TEXT_WORDS = new Set(['caption', 'credit', 'credits', 'gallery', 'slideshow', 'carousel', 'photo', 'image', 'img']);

function isNotText(element: DomElement): boolean {
  return NOT_TEXT_TAGS.has(element.localName) || classWords(element).some((w) => NOT_TEXT_WORDS.has(w));
}

/** articleBody: one line per block (paragraph, sub-heading, list item), inline runs joined. */
export function renderText(blocks: DomElement[]): string {
  const lines: string[] = [];
  let line = '';
  const flush = () => {
    const text = line.replace(/\s+/g, ' ').trim();
    if (text) lines.push(text);
    line = '';
  };
  const visit = (node: DomNode) => {
    if (node.nodeType === TEXT_NODE) {
      line += node.textContent ?? '';
      return;
    }
    if (!isElement(node)) return;
    const tag = node.localName;
    if (tag === 'br') return flush();
    if (isNotText(node)) return;
    if (tag === 'pre') {
      flush();
      lines.push(...(node.textContent ?? '').split('\n').map((l) => l.trimEnd()).filter((l) => l.trim()));
      return;
    }
    const block = BLOCK_TAGS.has(tag);
    if (block) flush();
    else if (tag === 'td' || tag === 'th' || tag === 'img') line += ' ';
    for (let child = node.firstChild; child; child = child.nextSibling) visit(child);
    if (block) flush();
  };
  blocks.forEach(visit);
  flush();
  return lines.join('\n');
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ESCAPES[c]);

/** articleBodyRaw: the blocks' HTML with layout wrappers unwrapped and only content attributes kept. */
export function renderHtml(blocks: DomElement[], resolveUrl: (url: string) => string | undefined): string {
  let html = '';
  const visit = (node: DomNode) => {
    if (node.nodeType === TEXT_NODE) {
      html += escapeHtml((node.textContent ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (!isElement(node)) return;
    const tag = HEADING_AS_PARAGRAPH.has(node.localName) ? 'h2' : node.localName;
    const kept = RAW_TAGS.has(tag);
    if (kept) {
      html += `<${tag}`;
      for (const name of RAW_ATTRIBUTES[tag] ?? []) {
        const value = node.getAttribute(name);
        const resolved = value && (name === 'href' || name === 'src' ? resolveUrl(value) : value);
        if (resolved) html += ` ${name}="${escapeHtml(resolved)}"`;
      }
      html += '>';
      if (VOID_TAGS.has(tag)) return;
    }
    for (let child = node.firstChild; child; child = child.nextSibling) visit(child);
    if (kept) html += `</${tag}>`;
    else if (BLOCK_TAGS.has(tag)) html += '\n';
  };
  blocks.forEach(visit);
  return `<article>\n${html.replace(/\n{2,}/g, '\n').trim()}\n</article>`;
}
