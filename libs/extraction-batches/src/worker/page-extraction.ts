import { extractArticle, extractProduct } from '@crawlhub/extraction';
import type { ExtractionPageType } from '@crawlhub/contracts';
import { hasVisibleContent, pageText } from '../domain/page-text';

/** One downloaded page to extract: what a thread (or the main thread) is given. */
export interface PageJob {
  /** The response body as downloaded (moved to the thread, not copied). */
  body: Uint8Array;
  contentType: string | undefined;
  /** The page's own URL (links and images resolve against it). */
  url: string;
  pageType: ExtractionPageType;
  articleBodyRaw: boolean;
}

/**
 * The engine's article or product for a page, as a plain object (it crosses threads and
 * goes into an event); null when the body is not a page or shows nothing (the original's
 * "No visible elements"). Decoding happens here too: it is most of a page's CPU after
 * the engine, so it leaves the main thread with it.
 */
export function extractPage(job: PageJob): Record<string, unknown> | null {
  const html = pageText(Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength), job.contentType);
  if (html === null || !hasVisibleContent(html)) return null;
  const result = job.pageType === 'article' ? extractArticle(html, job.url, { articleBodyRaw: job.articleBodyRaw }) : extractProduct(html, job.url);
  return result as unknown as Record<string, unknown>;
}
