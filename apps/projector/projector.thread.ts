import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CrawlhubConfig } from '@crawlhub/config';
import { logColours } from '@crawlhub/platform';

/** Starts the projector role in a worker thread; resolves once it has caught up. */
/**
 * The thread gets the already parsed config (a plain object), so it is parsed once, and
 * whether its log lines may be coloured (its own stdout is never a terminal).
 */
export function startProjectorThread(config: CrawlhubConfig): Promise<{ stop(): Promise<void> }> {
  const worker = new Worker(join(__dirname, 'projector.worker.js'), { workerData: { config, colours: logColours() } });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`projector thread exited with ${code}`)));
    worker.once('message', (m) => {
      if (m !== 'ready') return;
      worker.removeAllListeners('exit');
      resolve({
        stop: () =>
          new Promise<void>((done) => {
            worker.once('message', () => void worker.terminate().then(() => done()));
            worker.postMessage('stop');
          }),
      });
    });
  });
}
