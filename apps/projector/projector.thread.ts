import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CrawlhubConfig } from '@crawlhub/config';
import { logColours, startSupervisedThread, SupervisedThread } from '@crawlhub/platform';

/**
 * Starts the projector role in a worker thread; resolves once it has caught up. The
 * thread gets the already parsed config (a plain object), so it is parsed once, and
 * whether its log lines may be coloured (its own stdout is never a terminal). If it
 * dies later it is started again (startSupervisedThread): it resumes from the views'
 * checkpoints, so nothing is applied twice and the other roles keep serving meanwhile.
 */
export function startProjectorThread(config: CrawlhubConfig): Promise<SupervisedThread> {
  return startSupervisedThread(() => new Worker(join(__dirname, 'projector.worker.js'), { workerData: { config, colours: logColours(config) } }), { name: 'ProjectorThread' });
}
