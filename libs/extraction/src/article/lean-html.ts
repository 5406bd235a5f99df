/**
 * The article reader's cut of the html before parsing: parsing (a DOM node each) is most of
 * the engine's time, and a third of a page's nodes are whitespace or furniture that the body
 * extractor would drop anyway.
 * - Whitespace right before a block-level or head tag never reaches the text (a block starts a
 *   new line anyway); whitespace before inline tags stays ("<b>a</b> <i>b</i>" is two words).
 * - <nav>, <aside> and <footer> are never article text (the body extractor drops them too),
 *   unless they carry microdata or RDFa (breadcrumbs, a dated byline) or a breadcrumb trail;
 *   nor is a <header> without a headline (<h1>) or a date: the site's banner and menus.
 * - <link> tags: stylesheets, icons and feeds.
 * - Noscript fallbacks go: pages are read as rendered with scripts on.
 */
const BLOCK_TAG_AHEAD = />\s+(?=<\/?(?:address|article|aside|blockquote|body|dd|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|head|header|hr|html|li|link|main|meta|nav|noscript|ol|option|p|section|select|table|tbody|td|tfoot|th|thead|title|tr|ul)\b)/gi;
// The name must end the tag name: <header-nav> is a custom element, not a <header>.
const FURNITURE = /<(nav|aside|footer|header|noscript)(?=[\s/>])[^>]*>[\s\S]*?<\/\1\s*>|<link(?=[\s/>])[^>]*>/gi;
const STRUCTURED_MARKUP = /\b(?:itemprop|itemscope|typeof|property)=|breadcrumb/i;
const ARTICLE_HEADER = /<h1\b|<time\b/i;

function isKept(block: string, tag: string | undefined): boolean {
  switch (tag?.toLowerCase()) {
    case 'noscript':
    case undefined:
      return false;
    case 'header':
      return ARTICLE_HEADER.test(block) || STRUCTURED_MARKUP.test(block);
    default:
      return STRUCTURED_MARKUP.test(block);
  }
}

export function leanHtml(html: string): string {
  return html.replace(FURNITURE, (block, tag: string | undefined) => (isKept(block, tag) ? block : '')).replace(BLOCK_TAG_AHEAD, '>');
}
