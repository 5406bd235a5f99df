import { Logger } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { extractPage, PageJob } from './page-extraction';

/** The compiled thread body; absent when running from TypeScript sources (the unit and in-process tests). */
const THREAD_SCRIPT = join(__dirname, 'extraction-thread.js');

/**
 * The V8 heap of an extraction thread: a young generation of up to 256 MB instead of V8's
 * default. While a page is read its whole DOM is alive, and a
 * product page's (the product benchmark's: 0.4 MB of HTML at the median, up to 2 MB)
 * outgrew V8's semi-spaces: every scavenge copied it again and then promoted it, for the
 * old generation's collections to free. A quarter of the engine's time went to garbage
 * collection on those pages; with this young generation the DOM dies young (scavenges
 * 2.2 s → 0.2 s over 1,050 extractions): 105–113 → 158–165 pages/s of CPU, and a lower peak
 * RSS (526 → 388 MB in one process), since far less is promoted. Sizes measured: 144 and
 * 192 MB gained nothing, 224 and more the same as 256. The article engine's speed does not
 * move (its pages are smaller). The semi-spaces grow to this size only while a page's
 * objects survive.
 */
export const EXTRACTION_THREAD_LIMITS = { maxYoungGenerationSizeMb: 256 } as const;

export interface PageExtractorOptions {
  /** Worker threads running the engine (EXTRACT_THREADS); 0: the main thread. */
  threads: number;
  /** A page still being extracted after this long fails, and its thread is replaced (EXTRACT_PAGE_TIMEOUT_MS). */
  pageTimeoutMs: number;
  /** The compiled thread body (default: beside this file once built). */
  threadScript?: string;
}

export interface PageExtraction {
  /** The article or product; null: nothing visible. */
  result: Record<string, unknown> | null;
  /** Time the engine took, ms. */
  ms: number;
}

/** A page whose extraction outran `pageTimeoutMs`: its thread was stopped. */
export class PageExtractionTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the page's extraction took longer than ${timeoutMs} ms`);
  }
}

interface QueuedPage {
  job: PageJob;
  resolve(r: PageExtraction): void;
  reject(e: Error): void;
}

interface Thread {
  worker: Worker;
  /** The page it is extracting; a thread takes one page at a time. */
  running: QueuedPage | null;
  deadline: NodeJS.Timeout | null;
  /** Stopped or dead: whatever it still says is ignored. */
  retired: boolean;
}

/**
 * Runs the extraction engine beside the worker's main thread, on worker threads
 * (EXTRACT_THREADS): the engine is CPU-bound, so in one process (`npm start`) the
 * downloads, the API and the log keep the main thread while pages are extracted on
 * another core. Pages wait here and each idle thread takes the next, one at a time, so a
 * page that runs too long (the parser is quadratic on tens of thousands of unclosed tags)
 * is stopped by terminating its thread without losing the pages queued behind it. A
 * thread that dies or is stopped is replaced; only its own page fails. With 0 threads, or
 * no compiled thread body (running from sources), pages are extracted on the main thread,
 * with no time limit.
 */
export class PageExtractor {
  private readonly log = new Logger('PageExtractor');
  private readonly threads: Thread[] = [];
  private readonly queue: QueuedPage[] = [];
  private readonly threadScript: string;
  private closed = false;

  constructor(private readonly options: PageExtractorOptions) {
    this.threadScript = options.threadScript ?? THREAD_SCRIPT;
    if (options.threads > 0 && !existsSync(this.threadScript)) this.log.log(`extracting on the main thread: no compiled ${this.threadScript} (running from sources)`);
    else for (let i = 0; i < options.threads; i++) this.threads.push(this.spawn());
  }

  get threadCount(): number {
    return this.threads.length;
  }

  /**
   * The page's article or product, and the time it took; rejects with the engine's error
   * or a PageExtractionTimeout. The job's body moves to a thread: do not use it after.
   */
  extract(job: PageJob): Promise<PageExtraction> {
    if (this.closed) return Promise.reject(new Error('the page extractor is closed'));
    if (this.threads.length === 0) {
      const started = performance.now();
      return Promise.resolve().then(() => ({ result: extractPage(job), ms: performance.now() - started }));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const page of this.queue.splice(0)) page.reject(new Error('the page extractor is closed'));
    const threads = this.threads.splice(0);
    for (const thread of threads) this.retire(thread)?.reject(new Error('the page extractor is closed'));
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  private dispatch(): void {
    for (const thread of this.threads) {
      if (this.queue.length === 0) return;
      if (thread.running !== null) continue;
      const page = this.queue.shift()!;
      thread.running = page;
      thread.deadline = setTimeout(() => this.stopOverrun(thread), this.options.pageTimeoutMs);
      const { job } = page;
      // The body's bytes are handed over, not copied (a copy when they share a pooled buffer).
      const body = job.body.byteOffset === 0 && job.body.byteLength === job.body.buffer.byteLength ? job.body : job.body.slice();
      thread.worker.postMessage({ job: { ...job, body } }, [body.buffer as ArrayBuffer]);
    }
  }

  /** Takes the thread out of service; returns the page it was running. */
  private retire(thread: Thread): QueuedPage | null {
    const page = thread.running;
    thread.retired = true;
    thread.running = null;
    if (thread.deadline !== null) clearTimeout(thread.deadline);
    return page;
  }

  private replace(thread: Thread): void {
    const at = this.threads.indexOf(thread);
    if (at >= 0 && !this.closed) this.threads[at] = this.spawn();
    this.dispatch();
  }

  private stopOverrun(thread: Thread): void {
    const page = this.retire(thread);
    this.log.warn(`stopped an extraction thread: a page ran past EXTRACT_PAGE_TIMEOUT_MS (${this.options.pageTimeoutMs} ms)`);
    page?.reject(new PageExtractionTimeout(this.options.pageTimeoutMs));
    void thread.worker.terminate();
    this.replace(thread);
  }

  private spawn(): Thread {
    const thread: Thread = { worker: new Worker(this.threadScript, { resourceLimits: EXTRACTION_THREAD_LIMITS }), running: null, deadline: null, retired: false };
    thread.worker.on('message', (m: { result?: Record<string, unknown> | null; error?: string; ms: number }) => {
      if (thread.retired) return;
      const page = thread.running;
      thread.running = null;
      if (thread.deadline !== null) clearTimeout(thread.deadline);
      if (m.error !== undefined) page?.reject(new Error(m.error));
      else page?.resolve({ result: m.result ?? null, ms: m.ms });
      this.dispatch();
    });
    thread.worker.on('error', (e) => this.log.error(`an extraction thread failed: ${e.stack ?? e.message}`));
    thread.worker.on('exit', (code) => {
      if (thread.retired) return;
      this.retire(thread)?.reject(new Error(`the extraction thread exited (code ${code})`));
      this.replace(thread);
    });
    // A thread waiting for work must not keep the process alive.
    thread.worker.unref();
    return thread;
  }
}
