/**
 * One pass before parsing drops what no extractor reads: scripts other than JSON-LD, styles,
 * inline SVG, comments, and the attributes pages fill most — inline styles that hide nothing,
 * event handlers, data-* other than lazy-image sources. That is most of a shop page's bytes,
 * and parsing is most of the engine's time. A style that hides its element stays: the
 * article reader drops hidden blocks.
 *
 * Left to right: a JSON-LD script is matched first and kept whole ($1), so a comment inside
 * it is consumed with it; every other match is dropped. A replacement string, not a
 * function, keeps V8 on its fast path.
 */
const HIDING = String.raw`(?:display|visibility)\s*:\s*(?:none|hidden)`;
const NON_CONTENT = new RegExp(
  [
    String.raw`(<script\b[^>]*application\/ld\+json[^>]*>[\s\S]*?<\/script\s*>)`,
    String.raw`<script\b[^>]*>[\s\S]*?<\/script\s*>`,
    String.raw`<style\b[^>]*>[\s\S]*?<\/style\s*>`,
    String.raw`<svg\b[^>]*>[\s\S]*?<\/svg\s*>`,
    String.raw`<!--[\s\S]*?-->`,
    String.raw`\s(?:on[a-z]+|data-(?!src|original|lazy-src|zoom-image)[\w-]*)\s*=\s*(?:"[^"]*"|'[^']*')`,
    String.raw`\sstyle\s*=\s*(?:"(?![^"]*${HIDING})[^"]*"|'(?![^']*${HIDING})[^']*')`,
  ].join('|'),
  'gi',
);

export function withoutNonContent(html: string): string {
  return html.replace(NON_CONTENT, '$1');
}

/**
 * Headings as a browser's parser closes them, which htmlparser2 does not: an end tag of any
 * heading level closes the open heading ("<h1>Title</h2>" is a closed `<h1>`), and a heading
 * that starts while another is open closes it first ("<h1>Title<div></div><h3>date</h3>" is
 * two headings, not a title that runs into its date line). Only heading tags are rewritten, to
 * the form htmlparser2 reads the same way: the matching end tag.
 */
const HEADING_TAG = /<(\/?)h([1-6])(?=[\s/>])[^>]*>/gi;

export function withHeadingsClosed(html: string): string {
  let open: string | null = null;
  return html.replace(HEADING_TAG, (tag: string, end: string, level: string) => {
    if (end) {
      if (open === null) return tag;
      const closing = `</h${open}>`;
      open = null;
      return closing;
    }
    const before = open === null ? '' : `</h${open}>`;
    open = level;
    return before + tag;
  });
}
