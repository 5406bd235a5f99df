import { Logger } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { extractPage, PageJob } from './page-extraction';

/** The compiled thread body; absent when running from TypeScript sources (the unit and in-process tests). */
const THREAD_SCRIPT = join(__dirname, 'extraction-thread.js');

interface Pending {
  resolve(r: { result: Record<string, unknown> | null; ms: number }): void;
  reject(e: Error): void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * Runs the extraction engine beside the worker's main thread, on `threads` worker threads
 * (EXTRACT_THREADS): the engine is CPU-bound, so in one process (`npm start`) the
 * downloads, the API and the log keep the main thread while pages are extracted on
 * another core. Each job goes to the thread with the fewest pending. 0 threads, or no
 * compiled thread body (running from sources): on the main thread. A thread that dies is
 * replaced; its pending jobs fail.
 */
export class PageExtractor {
  private readonly log = new Logger('PageExtractor');
  private readonly threads: Thread[] = [];
  private nextId = 0;
  private closed = false;

  constructor(threads: number) {
    if (threads > 0 && !existsSync(THREAD_SCRIPT)) this.log.log(`extracting on the main thread: no compiled ${THREAD_SCRIPT} (running from sources)`);
    else for (let i = 0; i < threads; i++) this.threads.push(this.spawn());
  }

  get threadCount(): number {
    return this.threads.length;
  }

  /**
   * The page's article or product (null: nothing visible), and the time it took (ms);
   * rejects with the engine's error. The job's body moves to the thread: do not use it after.
   */
  async extract(job: PageJob): Promise<{ result: Record<string, unknown> | null; ms: number }> {
    if (this.threads.length === 0) {
      const started = performance.now();
      return { result: extractPage(job), ms: performance.now() - started };
    }
    const thread = this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      // The body's bytes are handed over, not copied (a copy when they share a pooled buffer).
      const body = job.body.byteOffset === 0 && job.body.byteLength === job.body.buffer.byteLength ? job.body : job.body.slice();
      thread.worker.postMessage({ id, job: { ...job, body } }, [body.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.splice(0).map((t) => t.worker.terminate()));
  }

  private spawn(): Thread {
    const thread: Thread = { worker: new Worker(THREAD_SCRIPT), pending: new Map() };
    thread.worker.on('message', (m: { id: number; result?: Record<string, unknown> | null; error?: string; ms: number }) => {
      const p = thread.pending.get(m.id);
      thread.pending.delete(m.id);
      if (m.error !== undefined) p?.reject(new Error(m.error));
      else p?.resolve({ result: m.result ?? null, ms: m.ms });
    });
    thread.worker.on('error', (e) => this.log.error(`an extraction thread failed: ${e.stack ?? e.message}`));
    thread.worker.on('exit', (code) => {
      for (const p of thread.pending.values()) p.reject(new Error(`the extraction thread exited (code ${code})`));
      thread.pending.clear();
      const at = this.threads.indexOf(thread);
      if (at >= 0 && !this.closed) this.threads[at] = this.spawn();
    });
    // A thread waiting for work must not keep the process alive.
    thread.worker.unref();
    return thread;
  }
}
