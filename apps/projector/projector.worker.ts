import 'reflect-metadata';
import { parentPort, workerData } from 'node:worker_threads';
import { CrawlhubConfig } from '@crawlhub/config';
import { nestLogger, openCore } from '@crawlhub/platform';
import { startProjector } from './projector.app';

/**
 * The projector in its own thread: on the embedded default it keeps the views' SQLite
 * work off the thread that serves HTTP, using the second core. It opens its own
 * connections; appends and progress reach across threads through ThreadSignal.
 */
async function main(): Promise<void> {
  const config = workerData.config as CrawlhubConfig;
  const core = await openCore(config);
  const context = await startProjector(core, nestLogger(config, workerData.colours as boolean));
  parentPort!.on('message', async (message) => {
    if (message !== 'stop') return;
    await context.close();
    await core.close();
    parentPort!.postMessage('stopped');
  });
  parentPort!.postMessage('ready');
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
