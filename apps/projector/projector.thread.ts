import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { LoggerService, LogLevel } from '@nestjs/common';
import { CrawlhubConfig } from '@crawlhub/config';
import { Core, logColours, startSupervisedThread, SupervisedThread } from '@crawlhub/platform';

/**
 * Starts the projector role in a worker thread; resolves once it has caught up. The
 * thread gets the already parsed config (a plain object), so it is parsed once, and
 * whether its log lines may be coloured (its own stdout is never a terminal). If it
 * dies later it is started again (startSupervisedThread): it resumes from the views'
 * checkpoints, so nothing is applied twice and the other roles keep serving meanwhile.
 */
function startProjectorThread(config: CrawlhubConfig): Promise<SupervisedThread> {
  return startSupervisedThread(() => new Worker(join(__dirname, 'projector.worker.js'), { workerData: { config, colours: logColours(config) } }), { name: 'ProjectorThread' });
}

/**
 * The projector role of a process. Beside other roles it runs in a worker thread, which
 * keeps its work (SQLite's is synchronous) off the thread that serves their requests. The
 * role alone (`APP_ROLE=projector`, a fleet's projector service) has no such thread to
 * spare: it projects on the main thread with the process's own core. A thread would load
 * the platform's modules and open the event log and view store a second time, which is
 * most of the CPU a start needs: on a loaded host (a fleet's processes on two cores) a
 * restarted projector took over 100 s to project again, writes answering 503 meanwhile
 * (docs/operations.md, "The projector's restart"). Alone, a failure it does not handle
 * ends the process, and its supervisor starts it again, as for every other role.
 */
export async function startProjectorRole(config: CrawlhubConfig, core: Core, logger: LoggerService | LogLevel[] | false): Promise<{ stop(): Promise<void> }> {
  if (config.roles.length > 1) return startProjectorThread(config);
  const { startProjector } = await import('./projector.app');
  const context = await startProjector(core, logger);
  return { stop: () => context.close() };
}
