import { DomElement, DomNode, TEXT_NODE, isElement, wordsOf } from '../../dom';
import { classAndCompoundWords } from './boilerplate';
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
 * A figure around a table or a quote is text: WordPress wraps every table in `<figure class="wp-block-table">`
 * and a pull quote or testimonial in `<figure><blockquote>`; annotated bodies keep them (their caption still goes).
 * Not an embedded post (`<figure class="wp-block-embed-twitter"><blockquote class="twitter-tweet">`): another
 * page's words, which annotated bodies leave out.
 */
const TEXT_FIGURE_CONTENT = 'table, blockquote';

function isTextFigure(figure: DomElement): boolean {
  return figure.querySelector(TEXT_FIGURE_CONTENT) !== null && !classAndCompoundWords(figure).includes('embed');
}

/**
 * Not article text: the article's header (title, byline, date), and image captions, credits
 * and galleries, which annotated article bodies leave out (the cleaned HTML keeps them).
 */
const NOT_TEXT_TAGS = new Set(['header', 'figure', 'figcaption']);
const HEADING = /^h[1-6]$/;

/** Headings compared as words: case, punctuation and spacing aside. */
export function headingKey(text: string | null | undefined): string {
  return (text ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}
const NOT_TEXT_WORDS = new Set(['photo', 'image', 'img']);
/** Matched inside compound class names too ("inlinegallery", "imagecaption"). */
const NOT_TEXT_STEMS = ['caption', 'credit', 'gallery', 'slideshow', 'carousel'];
const PROSE_CONTAINER_PARAGRAPHS = 3;
/** Captions and credits stay shorter than this. */
const PROSE_PARAGRAPH_CHARS = 300;

function isNotText(element: DomElement): boolean {
  // page builders wrap whole sections in <header>, the article's text too ("<header class="rich-text">")
  if (element.localName === 'header') return element.querySelectorAll('p').length < PROSE_CONTAINER_PARAGRAPHS;
  if (element.localName === 'figure') return !isTextFigure(element);
  if (NOT_TEXT_TAGS.has(element.localName)) return true;
  const words = classAndCompoundWords(element);
  const captionLike = words.some((w) => NOT_TEXT_STEMS.some((stem) => w.includes(stem)));
  const pictureLike = wordsOf(pictureNames(element)).some((w) => NOT_TEXT_WORDS.has(w));
  if (!captionLike && !pictureLike) return false;
  // a container of several paragraphs is prose whatever its name ("credit-cards-guide");
  // "has-image" on a card of lists names its picture, not what it is
  const paragraphs = element.querySelectorAll('p');
  if (paragraphs.length >= PROSE_CONTAINER_PARAGRAPHS) return false;
  // nor is an item of a listicle named for its picture ("list-item-large-image") that holds a paragraph longer than a caption
  if (paragraphs.some((p) => (p.textContent ?? '').length >= PROSE_PARAGRAPH_CHARS)) return false;
  return captionLike || !element.querySelector('li');
}

/**
 * A modifier saying that a block has a picture ("tasty-roundups-item-has-image", "card--with-photo") names a card
 * beside its picture (a roundup's entry and its description), not the picture.
 */
const HAS_PICTURE_MODIFIER = /(?:^|[-_])(?:has|with)[-_]+(?:image|photo|img)s?$/i;

function pictureNames(element: DomElement): string {
  const names = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
  return names
    .split(/\s+/)
    .filter((name) => !HAS_PICTURE_MODIFIER.test(name))
    .join(' ');
}

/** Dates as bylines write them: 19/11/2019, 2019-11-19, Nov. 19, 2019, 22 de janeiro de 2018, 5 October 2018. */
const DATE = /\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|\b\p{L}{3,}\.?\s+\d{1,2},?\s+\d{4}\b|\b\d{1,2}\.?\s+(?:de\s+)?\p{L}{3,}\.?\s+(?:de\s+)?\d{4}\b/iu;
const DATELINE_CHARS = 100;

/** A short line with a date that is no sentence is a dateline ("Published Nov 18, 2019 | Updated …"). */
function isDateline(line: string): boolean {
  return line.length < DATELINE_CHARS && !/[.!?]["”’)]?$/.test(line) && DATE.test(line);
}

const TABLE_CELLS = new Set(['td', 'th']);

/**
 * articleBody: one line per block (paragraph, sub-heading, list item), inline runs joined; the title (`titles`, by
 * headingKey) is left out. A date in a table's cell is the table's data (a price history's months), not a dateline.
 */
export function renderText(blocks: DomElement[], titles: ReadonlySet<string> = new Set()): string {
  const lines: string[] = [];
  let line = '';
  let cellDepth = 0;
  const flush = () => {
    const text = line.replace(/\s+/g, ' ').trim();
    if (text && (cellDepth > 0 || !isDateline(text))) lines.push(text);
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
    if (isNotText(node) || (HEADING.test(tag) && titles.has(headingKey(node.textContent)))) return;
    if (tag === 'pre') {
      flush();
      lines.push(...(node.textContent ?? '').split('\n').map((l) => l.trimEnd()).filter((l) => l.trim()));
      return;
    }
    const block = BLOCK_TAGS.has(tag);
    const cell = TABLE_CELLS.has(tag);
    if (block) flush();
    else if (cell || tag === 'img') line += ' ';
    if (cell) cellDepth++;
    for (let child = node.firstChild; child; child = child.nextSibling) visit(child);
    if (block) flush();
    if (cell) cellDepth--;
  };
  blocks.forEach(visit);
  flush();
  return lines.join('\n');
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ESCAPES[c]);

/** articleBodyRaw for text that has no markup of its own: a paragraph per line. */
export function linesHtml(text: string): string {
  return `<article>\n${text
    .split('\n')
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('\n')}\n</article>`;
}

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
