import { parentPort, ResourceLimits, Worker, workerData } from 'node:worker_threads';

/**
 * A bench's timed work in a worker thread of its own, with the heap limits the platform
 * gives the thread that does that work in production (e.g. EXTRACTION_THREAD_LIMITS): a
 * figure measured on the bench's main thread would be V8's default heap's, not the
 * platform's. `task` is the name of a function exported by the compiled bench module
 * `module` (`__filename` of the caller); it gets `args` and its result comes back.
 */
export function inThread<T>(module: string, task: string, args: unknown, resourceLimits?: ResourceLimits): Promise<T> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(__filename, { workerData: { threadTask: { module, task, args } }, resourceLimits });
    thread.once('message', resolve);
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`the thread of ${task} exited with ${code} before its result`)));
  });
}

if (workerData?.threadTask) {
  const { module, task, args } = workerData.threadTask as { module: string; task: string; args: unknown };
  const run = (require(module) as Record<string, (a: unknown) => unknown>)[task];
  parentPort!.postMessage(run(args));
}
