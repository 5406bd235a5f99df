import { DomElement, wordsOf } from '../../dom';

/** Elements that never hold article prose. */
const NON_CONTENT_TAGS = new Set([
  'script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas', 'button', 'input', 'select',
  'textarea', 'label', 'dialog', 'menu', 'link', 'meta',
]);

/**
 * Landmarks of page furniture: dropped unless one holds most of the page's prose, as an unclosed
 * `<aside class="announcement-banner">` does when the parser nests the whole page inside it.
 */
const FURNITURE_TAGS = new Set(['nav', 'aside', 'footer']);

/**
 * Words in a class or id that mark page furniture around an article: sharing, related links,
 * comments, ads, newsletter boxes, navigation, bylines and tags.
 */
const BOILERPLATE_WORDS = new Set([
  'share', 'sharing', 'shares', 'social', 'sociallinks', 'related', 'relatedposts', 'recommended', 'recommendations', 'recirc',
  'comment', 'comments', 'disqus', 'newsletter', 'subscribe', 'subscription', 'signup', 'promo', 'promotion', 'ad', 'ads',
  'advert', 'advertisement', 'adsense', 'dfp', 'sponsor', 'sponsored', 'outbrain', 'taboola', 'sidebar', 'popup', 'modal',
  'cookie', 'cookies', 'gdpr', 'consent', 'breadcrumb', 'breadcrumbs', 'byline', 'author', 'authors', 'tags', 'tag', 'taglist',
  'footer', 'nav', 'navbar', 'navigation', 'menu', 'widget', 'toolbar', 'pagination', 'pager', 'print', 'rss', 'banner',
  'masthead', 'skip', 'sronly', 'visuallyhidden', 'screenreadertext', 'offscreen', 'login', 'more',
]);

/** Words that make a block a likely content container whatever else its class says. */
const CONTENT_WORDS = new Set(['article', 'content', 'body', 'main', 'post', 'entry', 'story', 'text', 'prose']);

/** Words inside a paragraph or code are the paragraph's or the code's, whatever their class ("textTag" links, "hljs-comment"). */
const PHRASING_TAGS = new Set(['a', 'abbr', 'b', 'cite', 'code', 'em', 'i', 'mark', 'q', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u']);

const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/**
 * Elementor frames every block, the article's text too, in "elementor-widget-wrap" >
 * "elementor-widget-container" and names each block "elementor-widget elementor-widget-heading"
 * (or -text-editor, -image): "widget" there says how the page is built, not that it is a sidebar
 * widget. What the block is stays ("elementor-widget-share-buttons" still says share).
 */
const BUILDER_FRAMES = /(?<!\S)elementor-widget(?=-|\s|$)/g;

/**
 * Page builders name every block a widget: HubSpot's rows and modules ("widget-span
 * widget-type-cell" > "widget-span widget-type-custom_widget" > "hs_cos_wrapper_widget"),
 * SiteOrigin's panels ("so-panel widget widget_sow-editor"). A sidebar's widgets hold a little
 * of the page's prose; when the blocks named "widget" hold most of it, the word says how the
 * page is built, and reading it as furniture dropped the article's sections (or chose a form).
 */
const BUILDER_BLOCKS_SHARE = 0.5;
const WIDGET_NAME = /widget/gi;

/** The page's outermost elements named a widget, when they hold most of its prose (`prose`: each element's prose characters). */
function builderWidgets(root: DomElement, prose: Map<DomElement, number>): DomElement[] | undefined {
  const widgets: DomElement[] = [];
  let widgetProse = 0;
  const visit = (element: DomElement) => {
    for (const child of Array.from(element.children)) {
      if (!prose.has(child)) continue;
      if (classAndCompoundWords(child).includes('widget')) {
        widgets.push(child);
        widgetProse += prose.get(child) ?? 0;
      } else visit(child);
    }
  };
  visit(root);
  return widgetProse > (prose.get(root) ?? 0) * BUILDER_BLOCKS_SHARE ? widgets : undefined;
}

/**
 * On a page built of widgets, renames "widget" to "block" in the names of those widgets and
 * everything inside them, so neither pruning nor scoring reads the builder's blocks as
 * sidebar widgets; what a block is stays ("elementor-widget-share-buttons" still says share). Widgets
 * elsewhere on the page keep their name.
 */
export function unnameBuilderWidgets(root: DomElement, prose: Map<DomElement, number>): void {
  for (const widget of builderWidgets(root, prose) ?? []) {
    for (const element of [widget, ...Array.from(widget.querySelectorAll('[class*=widget i], [id*=widget i]'))]) {
      for (const attribute of ['class', 'id']) {
        const names = element.getAttribute(attribute);
        const renamed = names?.replace(WIDGET_NAME, 'block');
        if (names && renamed !== names) element.setAttribute(attribute, renamed!);
      }
    }
  }
}

/** A heading's id is its anchor, made from its words ("what-share-of-adolescents-…", "one-or-more-titles"): not what the element is. */
const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Class strings repeat across a page and across pages (every "col-md-4"): split each once. */
const wordsOfNames = new Map<string, string[]>();
const MAX_REMEMBERED_NAMES = 50_000;

/**
 * The shared class words plus each compound name joined ("related-posts" → related, posts,
 * relatedposts), so "sr-only" and "visually-hidden" match as one word.
 */
export function classAndCompoundWords(element: DomElement): string[] {
  const id = HEADING_TAGS.has(element.localName) ? '' : (element.getAttribute('id') ?? '');
  const names = `${element.getAttribute('class') ?? ''} ${id}`;
  let words = wordsOfNames.get(names);
  if (!words) {
    const meant = names.replace(BUILDER_FRAMES, 'elementor');
    const compounds = meant.split(/\s+/).filter((name) => /[^A-Za-z0-9]|[a-z][A-Z]/.test(name));
    words = [...wordsOf(meant), ...compounds.map((name) => name.toLowerCase().replace(/[^a-z0-9]+/g, ''))];
    if (wordsOfNames.size >= MAX_REMEMBERED_NAMES) wordsOfNames.clear();
    wordsOfNames.set(names, words);
  }
  return words;
}

/** Readers' comments are prose too, but not the article's. */
const COMMENT_WORDS = new Set(['comment', 'comments', 'commentlist', 'disqus', 'respond', 'reply', 'replies']);

export function isComment(element: DomElement): boolean {
  return classAndCompoundWords(element).some((word) => COMMENT_WORDS.has(word));
}

/**
 * The words of what an element is: in a BEM name ("cs-entry__author-description") the block
 * ("cs-entry") says where it sits, the part after "__" what it is. Only lower-case BEM names: in
 * a CSS module's ("ArticleAuthor_name__zSXJ_", "articleWidgetHTML_root___dYTF") a hash follows "__".
 */
const BEM_NAME = /^[a-z][a-z0-9-]*(?:__[a-z][a-z0-9-]*)+$/;

function ownNameWords(element: DomElement): string[] {
  const names = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
  const own = names.split(/\s+/).map((name) => (BEM_NAME.test(name) ? name.slice(name.lastIndexOf('__') + 2) : name));
  return wordsOf(own.join(' '));
}

/** Below this, a block named both ways ("share-text", "post-tags") is the furniture it names. */
const CONTENT_NAMED_MIN_CHARS = 300;

/**
 * `commentsAreFurniture`: a comment's body or content ("comments-body", "comment-content") is
 * then a reader's comment, however long; not on a forum, whose posts are named comments too.
 */
export function looksLikeBoilerplate(element: DomElement, commentsAreFurniture = false): boolean {
  const words = classAndCompoundWords(element);
  const namedContent =
    words.some((w) => CONTENT_WORDS.has(w)) &&
    !(commentsAreFurniture && words.some((w) => COMMENT_WORDS.has(w))) &&
    ownNameWords(element).some((w) => CONTENT_WORDS.has(w));
  if (namedContent && (element.textContent ?? '').length >= CONTENT_NAMED_MIN_CHARS) return false;
  const role = element.getAttribute('role');
  if (role === 'navigation' || role === 'complementary' || role === 'contentinfo' || role === 'banner' || role === 'dialog') return true;
  return words.some((w) => BOILERPLATE_WORDS.has(w));
}

/**
 * Whole class names that hide an element. Not the word "hidden" anywhere: "overflow-hidden"
 * wraps visible content, "hidden-xs" is hidden on phones only.
 */
const HIDING_CLASSES = new Set(['hidden', 'is-hidden', 'd-none', 'hide', 'invisible']);

/**
 * React's streamed rendering sends each late part of a page as `<div hidden id="S:3">` at the
 * end of the body, and a script shows it in its place: the reader sees it (a whole article on fool.com).
 */
const STREAMED_SEGMENT_ID = /^S:\d+$/;

export function isHidden(element: DomElement): boolean {
  if (STREAMED_SEGMENT_ID.test(element.getAttribute('id') ?? '')) return false;
  if (element.hasAttribute('hidden') || element.getAttribute('aria-hidden') === 'true') return true;
  const names = element.getAttribute('class');
  if (names && names.split(/\s+/).some((name) => HIDING_CLASSES.has(name))) return true;
  const style = element.getAttribute('style');
  return style !== null && HIDDEN_STYLE.test(style);
}

/**
 * Words naming a collapsible panel: an FAQ's answers, an accordion's sections, a "show more"
 * toggle. Hidden until the reader opens them, they are the article's text all the same.
 */
const COLLAPSIBLE_WORDS = new Set(['accordion', 'collapse', 'collapsed', 'collapsible', 'faq', 'faqs', 'expandable', 'expander', 'disclosure', 'toggle']);
const COLLAPSIBLE_NAME_LEVELS = 3;

/**
 * A panel hidden until opened, named so itself or by the item holding it. Not an `aria-hidden`
 * one: that hides a copy or a decoration from screen readers (and mobile menus that open the same way).
 */
function isCollapsedPanel(element: DomElement): boolean {
  if (element.getAttribute('aria-hidden') === 'true') return false;
  for (let node: DomElement | null = element, level = 0; node && level < COLLAPSIBLE_NAME_LEVELS; node = node.parentElement, level++) {
    if (classAndCompoundWords(node).some((word) => COLLAPSIBLE_WORDS.has(word))) return true;
  }
  return false;
}

/**
 * Removes what cannot be article text. `holdsArticle` protects containers that hold most of
 * the page's prose or the likely article, so a page-wide wrapper with an unlucky class
 * ("has-sidebar", "widget") survives, and so does a hidden one: React's streamed
 * `<div hidden id="S:0">` and a "hide" class that a script lifts hold the whole article on
 * some sites. `articleProse` protects, besides, the article's own prose blocks from their
 * class (but a hidden one inside the article, a "print only" note, goes). `commentsAreFurniture`
 * unless the likely article is itself a comment (a forum's posts).
 */
export function removeBoilerplate(
  root: DomElement,
  holdsArticle: (element: DomElement) => boolean,
  articleProse: (element: DomElement) => boolean,
  holdsMostProse: (element: DomElement) => boolean,
  commentsAreFurniture: boolean,
): void {
  const doomed: DomElement[] = [];
  const visit = (element: DomElement, inCode: boolean) => {
    for (const child of Array.from(element.children)) {
      const tag = child.localName;
      // a syntax highlighter names its spans for what the code holds: "hljs-comment", "token tag", "nav"
      const ownWords = PHRASING_TAGS.has(tag) && (element.localName === 'p' || inCode);
      const namedFurniture = tag !== 'body' && !ownWords && looksLikeBoilerplate(child, commentsAreFurniture) && !articleProse(child);
      if (NON_CONTENT_TAGS.has(tag) || (FURNITURE_TAGS.has(tag) && !holdsMostProse(child)) || (((isHidden(child) && !isCollapsedPanel(child)) || namedFurniture) && !holdsArticle(child))) doomed.push(child);
      else visit(child, inCode || tag === 'pre' || tag === 'code');
    }
  };
  visit(root, false);
  for (const element of doomed) element.remove();
}
