import { closeSync, fsync, openSync } from 'node:fs';

/**
 * Makes the commits of a WAL-mode SQLite file durable off the event loop. The log's
 * connection commits with synchronous=NORMAL (no fsync inside COMMIT, which would hold the
 * event loop for the disk's whole flush, 5–30 ms here, while every other request waits);
 * an append is acknowledged only after `durable()` resolves: an fsync of the WAL file on
 * libuv's thread pool that started after its commit. Fsyncs are grouped: commits made
 * while one is under way share the next one. Any descriptor of the file flushes all of it,
 * and frames a checkpoint already moved into the database file were synced by that
 * checkpoint (SQLite syncs the WAL, then the database, before it may reuse the WAL).
 */
export class WalSync {
  private fd: number | null = null;
  /** The fsync under way, if any. */
  private running: Promise<void> | null = null;
  /** The fsync that starts when the running one ends, shared by the commits made meanwhile. */
  private next: Promise<void> | null = null;

  constructor(private readonly walFile: string) {}

  /** Resolves once every commit made before this call is on disk. */
  durable(): Promise<void> {
    if (this.running === null) return (this.running = this.syncOnce());
    this.next ??= this.running.then(
      () => this.startNext(),
      () => this.startNext(),
    );
    return this.next;
  }

  private startNext(): Promise<void> {
    this.next = null;
    return (this.running = this.syncOnce());
  }

  private syncOnce(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => {
      try {
        // The WAL exists from the first commit on, and stays while the log's connection is open.
        this.fd ??= openSync(this.walFile, 'r');
      } catch (e) {
        return reject(e);
      }
      fsync(this.fd, (err) => (err ? reject(err) : resolve()));
    });
    const settle = () => {
      if (this.running === done) this.running = null;
    };
    done.then(settle, settle);
    return done;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
