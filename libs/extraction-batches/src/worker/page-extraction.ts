import { extractArticle, extractProduct } from '@crawlhub/extraction';
import type { ExtractionPageType } from '@crawlhub/contracts';

/** One page to extract: what a thread (or the main thread) is given. */
export interface PageJob {
  html: string;
  /** The page's own URL (links and images resolve against it). */
  url: string;
  pageType: ExtractionPageType;
  articleBodyRaw: boolean;
}

/** The engine's article or product for a page, as a plain object (it crosses threads and goes into an event). */
export function extractPage(job: PageJob): Record<string, unknown> {
  const result = job.pageType === 'article' ? extractArticle(job.html, job.url, { articleBodyRaw: job.articleBodyRaw }) : extractProduct(job.html, job.url);
  return result as unknown as Record<string, unknown>;
}
