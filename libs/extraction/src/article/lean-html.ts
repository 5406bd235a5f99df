import { decodeEntities, escapeAttributeValue, parseLightPage } from '../dom';
import { FURNITURE_AUTHOR, nameOfAuthorClass } from './fields/authors';
import { MAX_DATE_TEXT, toIsoDate } from './fields/published-date';

/**
 * The article reader's cut of the html before parsing: parsing (a DOM node each) is most of
 * the engine's time, and a third of a page's nodes are whitespace or furniture that the body
 * extractor would drop anyway.
 * - Whitespace right before a block-level or head tag never reaches the text (a block starts a
 *   new line anyway); whitespace before inline tags stays ("<b>a</b> <i>b</i>" is two words).
 * - <nav>, <aside> and <footer> are never article text (the body extractor drops them too),
 *   unless they carry microdata or RDFa (breadcrumbs, a dated byline) or a breadcrumb trail;
 *   nor is a <header> without a headline (<h1>), a date or paragraphs: the site's banner and menus (page
 *   builders wrap whole sections, the article's text too, in <header>; a site header's paragraphs sit beside
 *   its menu or search form).
 * - <link> tags: stylesheets, icons and feeds.
 * - Noscript fallbacks go: pages are read as rendered with scripts on. Except an app shell's: a page
 *   whose body outside its noscripts is empty of text (Discourse and Flarum forums render the thread
 *   with scripts and serve it to readers without them in a `<noscript>`) is read from the noscript
 *   that holds its text, unwrapped to a <div>.
 * - A dropped <aside>, <footer> or <header> that shows a date ("<aside><time>June 6, 2021</time></aside>",
 *   a byline footer) leaves that date behind as an empty `<time data-furniture datetime=…>`: no
 *   text for the body, but in its place for the date reader. One that names an author in an
 *   element of an author class (a side column's author card, a byline footer) leaves the name
 *   behind the same way, as an empty `<meta data-furniture-author content=…>`.
 * - A script or comment is passed over whole (the parser drops it later): a "<nav>" in a script's
 *   string matched through to the page's first </nav> and cut the <body> tag out with it.
 */
const BLOCK_TAG_AHEAD = />\s+(?=<\/?(?:address|article|aside|blockquote|body|dd|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|head|header|hr|html|li|link|main|meta|nav|noscript|ol|option|p|section|select|table|tbody|td|tfoot|th|thead|title|tr|ul)\b)/gi;
// The name must end the tag name: <header-nav> is a custom element, not a <header>.
const FURNITURE = /(<script\b[\s\S]*?<\/script\s*>|<!--[\s\S]*?-->)|<(nav|aside|footer|header|noscript)(?=[\s/>])[^>]*>[\s\S]*?<\/\2\s*>|<link(?=[\s/>])[^>]*>/gi;
const STRUCTURED_MARKUP = /\b(?:itemprop|itemscope|typeof|property)=|breadcrumb/i;
const ARTICLE_HEADER = /<h1\b|<time\b/i;
const PARAGRAPH = /<p[\s>]/gi;
const SITE_HEADER_PARTS = /<(?:nav|form|input)\b/i;
/** A header with this many paragraphs holds prose, not a banner. */
const PROSE_HEADER_PARAGRAPHS = 5;
// Furniture longer than this is a sidebar or a site footer, not a post's date line.
const MAX_DATED_FURNITURE = 700;
// Up to this long when its text names an author: a byline box beside the article, its markup long
// from nested wrappers ("Published August 30, 2024 · Author Lisa D. Ellis"), not a list of posts.
const MAX_BYLINE_FURNITURE = 2500;
const BYLINE_LABEL = /\b(?:written by|authors?)\b/i;
const TAGS = /<[^>]*>/g;
// The furniture that may leave a date or an author's name behind (never a <nav> or <noscript>).
const MARKED_FURNITURE = /^(?:aside|footer|header)$/i;
const TIME_DATETIME = /<time\b[^>]*\sdatetime=["']([^"']+)/i;
const YEAR = /\d{4}/;
// An element of an author class, or a link to the author's page (rel="author": the Guardian's byline in its meta column).
const AUTHOR_MARKUP = /\s(?:class=["'][^"']*|rel=["']?)author/i;

function isKept(block: string, tag: string | undefined): boolean {
  switch (tag?.toLowerCase()) {
    case 'noscript':
    case undefined:
      return false;
    case 'header':
      return ARTICLE_HEADER.test(block) || STRUCTURED_MARKUP.test(block) || ((block.match(PARAGRAPH)?.length ?? 0) >= PROSE_HEADER_PARAGRAPHS && !SITE_HEADER_PARTS.test(block));
    default:
      return STRUCTURED_MARKUP.test(block);
  }
}

/** A noscript this long (markup and all) may hold a page; shorter ones are a tracking pixel or a "turn on JavaScript" line. */
const PAGE_NOSCRIPT_MIN_CHARS = 2000;
/** An app shell's body shows less text than this outside its noscripts (a cookie line, a skip link). */
const APP_SHELL_MAX_TEXT = 1000;
const NOSCRIPT = /<noscript\b[^>]*>([\s\S]*?)<\/noscript\s*>/gi;
const NOT_TEXT = /<(script|style|noscript)\b[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->|<[^>]*>|\s+/gi;

function textLength(html: string): number {
  return html.replace(NOT_TEXT, '').length;
}

/** The page's text as its noscript states it, when the rest of its body is an empty app shell: the noscript unwrapped to a <div>. */
function unwrapAppShell(html: string): string {
  const long = [...html.matchAll(NOSCRIPT)].filter((match) => match[0].length >= PAGE_NOSCRIPT_MIN_CHARS);
  if (long.length === 0) return html;
  const bodyStart = html.search(/<body\b/i);
  const shellText = textLength(html.slice(Math.max(0, bodyStart)));
  if (shellText >= APP_SHELL_MAX_TEXT) return html;
  const page = long.map((match) => ({ match, text: textLength(match[1]) })).reduce((a, b) => (b.text > a.text ? b : a));
  if (page.text <= shellText) return html;
  const at = page.match.index!;
  return `${html.slice(0, at)}<div>${page.match[1]}</div>${html.slice(at + page.match[0].length)}`;
}

export function leanHtml(html: string): string {
  return unwrapAppShell(html)
    .replace(FURNITURE, (block, passedOver: string | undefined, tag: string | undefined) =>
      passedOver || isKept(block, tag) ? block : furnitureDateMark(block, tag) + furnitureAuthorMark(block, tag),
    )
    .replace(BLOCK_TAG_AHEAD, '>');
}

/** The first date a short dropped aside, footer or header shows (a <time>'s datetime first), as an empty marked <time>; else nothing. */
function furnitureDateMark(block: string, tag: string | undefined): string {
  if (tag === undefined || block.length > MAX_BYLINE_FURNITURE || !MARKED_FURNITURE.test(tag) || !YEAR.test(block)) return '';
  if (block.length > MAX_DATED_FURNITURE && !BYLINE_LABEL.test(block.replace(TAGS, ' '))) return '';
  const machineDate = TIME_DATETIME.exec(block);
  const pieces = machineDate ? [machineDate[1], ...block.split(TAGS)] : block.split(TAGS);
  for (const piece of pieces) {
    const text = piece.trim();
    const iso = text.length <= MAX_DATE_TEXT && YEAR.test(text) ? toIsoDate(decodeEntities(text)) : undefined;
    if (iso) return `<time data-furniture datetime="${iso}"></time>`;
  }
  return '';
}

/** The name in a dropped aside's, footer's or header's author element, as an empty marked <meta>; else nothing. Only such blocks are parsed. */
function furnitureAuthorMark(block: string, tag: string | undefined): string {
  if (tag === undefined || !MARKED_FURNITURE.test(tag) || !AUTHOR_MARKUP.test(block)) return '';
  const name = nameOfAuthorClass(parseLightPage(block).querySelectorAll('[class*=author i], [rel=author]'));
  return name ? `<meta ${FURNITURE_AUTHOR} content="${escapeAttributeValue(name)}">` : '';
}
