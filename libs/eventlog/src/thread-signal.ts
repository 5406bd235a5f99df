import { EventEmitter } from 'node:events';
import { BroadcastChannel } from 'node:worker_threads';

/**
 * A wake-up call between the threads of one process that use the same SQLite file (the
 * embedded projector runs in a worker thread). Other processes are reached by polling.
 * A notification may carry what changed (`T`, structured-cloned to the other threads), so
 * a listener can look only there.
 */
export class ThreadSignal<T = undefined> {
  private readonly local = new EventEmitter();
  private readonly channel: BroadcastChannel;

  constructor(name: string) {
    this.local.setMaxListeners(0);
    this.channel = new BroadcastChannel(name);
    this.channel.onmessage = (message) => this.local.emit('signal', (message as { data: T }).data);
    (this.channel as unknown as { unref(): void }).unref();
  }

  notify(...[payload]: T extends undefined ? [] : [T]): void {
    this.local.emit('signal', payload);
    this.channel.postMessage(payload ?? 0);
  }

  /** Calls `listener` with every notification (of this thread and the others) until the returned function is called. */
  listen(listener: (payload: T) => void): () => void {
    this.local.on('signal', listener);
    return () => this.local.off('signal', listener);
  }

  /** Resolves at the next notification, or after `ms`. */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.local.off('signal', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.local.on('signal', done);
    });
  }

  close(): void {
    this.channel.close();
  }
}
