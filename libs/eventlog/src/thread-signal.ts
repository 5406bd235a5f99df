import { EventEmitter } from 'node:events';
import { BroadcastChannel } from 'node:worker_threads';

/**
 * A wake-up call between the threads of one process that use the same SQLite file (the
 * embedded projector runs in a worker thread). Other processes are reached by polling.
 */
export class ThreadSignal {
  private readonly local = new EventEmitter();
  private readonly channel: BroadcastChannel;

  constructor(name: string) {
    this.local.setMaxListeners(0);
    this.channel = new BroadcastChannel(name);
    this.channel.onmessage = () => this.local.emit('signal');
    (this.channel as unknown as { unref(): void }).unref();
  }

  notify(): void {
    this.local.emit('signal');
    this.channel.postMessage(0);
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
