import { decodeHTML } from 'entities';
import { TextDecoder } from 'node:util';
import { WINDOWS_1252_HIGH } from '@crawlhub/extraction';

/** Content types that hold a page to extract from (the rest, images, PDFs..., have "no visible elements"). */
const PAGE_TYPES = /^(text\/(html|plain|xml)|application\/(xhtml\+xml|xml))\b/i;

/** The charset a page declares: in Content-Type, else in its first bytes' <meta>. */
function charsetOf(contentType: string | undefined, head: string): string | null {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  if (fromHeader) return fromHeader;
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ?? null;
}

/**
 * A downloaded page as text, decoded with its declared charset (a BOM wins; UTF-8 when
 * none is declared or the name is unknown), or null when it is not a page at all.
 */
export function pageText(body: Buffer, contentType: string | undefined): string | null {
  if (contentType && !PAGE_TYPES.test(contentType.trim())) return null;
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return new TextDecoder('utf-8').decode(body);
  const charset = charsetOf(contentType, body.subarray(0, 4096).toString('latin1'));
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  const text = decoder.decode(body);
  if (decoder.encoding !== 'windows-1252') return text;
  return text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]);
}

/**
 * Skipped wholesale (never shown), a media element (shown), or the text after a tag. A <noscript>'s text is
 * shown: pages are downloaded without running scripts, and an app shell (a Discourse or Flarum thread) serves
 * its whole page there, which the engine reads (lean html's app shells).
 */
const VISIBLE_SCAN = /<(script|style|template|title|head)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->|<(img|video|svg|canvas|iframe)\b|>([^<]*)/gi;

/** Whether a page shows any text or image at all (else the original's "No visible elements"); stops at the first. */
export function hasVisibleContent(html: string): boolean {
  VISIBLE_SCAN.lastIndex = 0;
  // A page that is text without any markup shows that text.
  if (!html.includes('<')) return /\S/.test(html);
  for (let m = VISIBLE_SCAN.exec(html); m !== null; m = VISIBLE_SCAN.exec(html)) {
    if (m[2] !== undefined) return true;
    // Text that is only spaces, written as they are or as entities (`&nbsp;`, `&#xA0;`, `&ensp;`...), shows nothing.
    if (m[3] !== undefined && /\S/.test(m[3].includes('&') ? decodeHTML(m[3]) : m[3])) return true;
  }
  return false;
}
