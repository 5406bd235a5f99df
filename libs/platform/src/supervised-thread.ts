import { Logger } from '@nestjs/common';
import type { Worker } from 'node:worker_threads';

/**
 * A role that runs in a worker thread of the platform's process (the projector on the
 * embedded default), kept running: a thread that dies after it was ready (an uncaught
 * exception, a crash of its store) is logged once and started again after a backoff, so
 * its role goes on and the process's other roles never notice. A thread that cannot get
 * ready the first time fails the start instead, as any role's start-up error does.
 *
 * The thread speaks a small protocol: it posts 'ready' once it serves; it answers the
 * message 'stop' with any message once it has closed, and is then terminated.
 */
export interface SupervisedThread {
  /** Times the thread was started again after it died. */
  readonly restarts: number;
  stop(): Promise<void>;
}

export interface SupervisionOptions {
  /** Names the thread in log lines. */
  name: string;
  /** First wait before a restart; it doubles with each death in a row, up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A thread that stayed up this long counts as healthy again: the next restart waits backoffMs. */
  healthyAfterMs?: number;
}

export async function startSupervisedThread(spawn: () => Worker, options: SupervisionOptions): Promise<SupervisedThread> {
  const logger = new Logger(options.name);
  const backoffMs = options.backoffMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const healthyAfterMs = options.healthyAfterMs ?? 60_000;
  let worker = await startReady(spawn);
  let stopping = false;
  let restarts = 0;
  let deathsInARow = 0;
  let readyAt = performance.now();
  let timer: NodeJS.Timeout | null = null;

  const watch = (w: Worker) => {
    let died = false;
    const onDeath = (why: string) => {
      if (died || stopping || w !== worker) return;
      died = true;
      if (performance.now() - readyAt >= healthyAfterMs) deathsInARow = 0;
      const wait = Math.min(maxBackoffMs, backoffMs * 2 ** deathsInARow++);
      logger.error(`the thread died (${why}); starting it again in ${wait} ms`);
      timer = setTimeout(restart, wait);
    };
    w.on('error', (e) => onDeath(e instanceof Error ? (e.stack ?? e.message) : String(e)));
    w.on('exit', (code) => onDeath(`exit code ${code}`));
  };

  const restart = async () => {
    timer = null;
    if (stopping) return;
    try {
      const next = await startReady(spawn);
      if (stopping) return void (await next.terminate());
      worker = next;
      readyAt = performance.now();
      restarts++;
      logger.log(`the thread is running again (restart ${restarts})`);
      watch(next);
    } catch (e) {
      // Not ready this time either: wait longer and try again; the role stays down meanwhile.
      const wait = Math.min(maxBackoffMs, backoffMs * 2 ** deathsInARow++);
      logger.error(`the thread could not start again (${(e as Error).message}); next try in ${wait} ms`);
      timer = setTimeout(restart, wait);
    }
  };

  watch(worker);
  return {
    get restarts() {
      return restarts;
    },
    stop: async () => {
      stopping = true;
      if (timer) clearTimeout(timer);
      const w = worker;
      if (w.threadId < 0) return; // already exited
      await new Promise<void>((done) => {
        w.once('exit', () => done());
        w.once('message', () => void w.terminate());
        w.postMessage('stop');
      });
    },
  };
}

/** Spawns the thread and waits for its 'ready'; rejects when it dies first. */
function startReady(spawn: () => Worker): Promise<Worker> {
  const w = spawn();
  return new Promise((resolve, reject) => {
    // Only these listeners go: a Worker keeps internal ones of its own (they start its message port).
    const settle = () => {
      w.off('error', onError);
      w.off('exit', onExit);
      w.off('message', onMessage);
    };
    const onError = (e: Error) => {
      settle();
      reject(e);
    };
    const onExit = (code: number) => onError(new Error(`the thread exited with code ${code} before it was ready`));
    const onMessage = (m: unknown) => {
      if (m !== 'ready') return;
      settle();
      resolve(w);
    };
    w.on('error', onError);
    w.on('exit', onExit);
    w.on('message', onMessage);
  });
}
