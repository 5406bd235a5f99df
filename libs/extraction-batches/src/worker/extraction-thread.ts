import { parentPort } from 'node:worker_threads';
import { extractPage, PageJob } from './page-extraction';

/**
 * The body of an extraction thread (PageExtractor): extracts the page it is sent (one at a
 * time) and answers with its result or the engine's error.
 */
parentPort!.on('message', (m: { job: PageJob }) => {
  const started = performance.now();
  try {
    const result = extractPage(m.job);
    parentPort!.postMessage({ result, ms: performance.now() - started });
  } catch (e) {
    parentPort!.postMessage({ error: e instanceof Error ? e.stack ?? e.message : String(e), ms: performance.now() - started });
  }
});
