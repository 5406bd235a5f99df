import { parentPort } from 'node:worker_threads';
import { extractPage, PageJob } from './page-extraction';

/**
 * The body of an extraction thread (PageExtractor): extracts the pages it is sent, one
 * at a time, and answers each with its result or the engine's error.
 */
parentPort!.on('message', (m: { id: number; job: PageJob }) => {
  const started = performance.now();
  try {
    const result = extractPage(m.job);
    parentPort!.postMessage({ id: m.id, result, ms: performance.now() - started });
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: e instanceof Error ? e.stack ?? e.message : String(e), ms: performance.now() - started });
  }
});
