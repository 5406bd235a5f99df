import { Worker } from 'node:worker_threads';

/** How often a WAL with frames in it is folded into its database file and truncated. */
export const WAL_CHECKPOINT_INTERVAL_MS = 30_000;

/** A WAL past this size is checkpointed (PASSIVE) at once, between the timed turns. */
export const WAL_BUSY_BYTES = 64 * 1024 * 1024;

/**
 * What the writers of a checkpointed file set `wal_autocheckpoint` to, in bytes: a
 * backstop only, four times WAL_BUSY_BYTES, for a checkpoint thread that falls behind.
 */
export const WAL_AUTOCHECKPOINT_BACKSTOP_BYTES = 4 * WAL_BUSY_BYTES;

/** How often the checkpoint thread looks at the size of each WAL. */
const POLL_MS = 250;

/**
 * The checkpoint thread: one per JS thread that opens checkpointed files, holding a
 * connection (no busy timeout) per file. It runs plain CommonJS, so the same code serves
 * the build and the tests.
 */
const CHECKPOINT_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.sqlite);
const files = new Map();
function checkpoint(file, f, mode) {
  try {
    f.db.pragma('wal_checkpoint(' + mode + ')');
    f.failing = false;
  } catch (e) {
    if (!f.failing) parentPort.postMessage({ warning: 'WAL checkpoint of ' + file + ': ' + e.message + '; retrying every turn' });
    f.failing = true;
  }
}
function turn(file, f, now) {
  const size = statSync(file + '-wal', { throwIfNoEntry: false })?.size ?? 0;
  if (size === 0) return;
  if (now || Date.now() - f.lastFull >= f.intervalMs) {
    f.lastFull = Date.now();
    checkpoint(file, f, 'TRUNCATE');
  } else if (size >= workerData.busyBytes) checkpoint(file, f, 'PASSIVE');
}
parentPort.on('message', (m) => {
  if (m.add) {
    const f = files.get(m.add);
    if (f) f.users++;
    else files.set(m.add, { db: new Database(m.add, { timeout: 0 }), intervalMs: m.intervalMs, lastFull: Date.now(), users: 1, failing: false });
  } else if (m.remove) {
    const f = files.get(m.remove);
    if (f && --f.users === 0) { f.db.close(); files.delete(m.remove); }
    parentPort.postMessage({ ticket: m.ticket });
  } else if (m.now) {
    const f = files.get(m.now);
    if (f) turn(m.now, f, true);
  }
});
setInterval(() => { for (const [file, f] of files) turn(file, f, false); }, workerData.pollMs);
`;

/** The checkpoint thread of this JS thread, while some file uses it. */
let thread: { worker: Worker; files: number } | null = null;

/**
 * The closes waiting for a thread to let go of their file, by ticket, with the thread
 * asked: a thread that ends releases only its own (the thread of a closed last file can
 * end after a new one has taken a file that is closing now).
 */
const releases = new Map<number, { worker: Worker; release: () => void }>();
let nextTicket = 0;

function checkpointThread(): Worker {
  if (!thread) {
    const worker = new Worker(CHECKPOINT_THREAD, { eval: true, workerData: { sqlite: require.resolve('better-sqlite3'), busyBytes: WAL_BUSY_BYTES, pollMs: POLL_MS } });
    worker.unref();
    worker.on('message', (m: { warning?: string; ticket?: number }) => {
      if (m.warning) process.emitWarning(m.warning);
      if (m.ticket !== undefined) releaseOf(m.ticket);
    });
    worker.on('error', (e) => process.emitWarning(`WAL checkpoint thread: ${e.message}; the writers' backstop checkpoints meanwhile`));
    worker.on('exit', () => {
      if (thread?.worker === worker) thread = null;
      // A thread that ended holds no file: nobody waits on it any longer.
      for (const [ticket, waiting] of [...releases]) if (waiting.worker === worker) releaseOf(ticket);
    });
    thread = { worker, files: 0 };
  }
  return thread.worker;
}

function releaseOf(ticket: number): void {
  releases.get(ticket)?.release();
  releases.delete(ticket);
}

/**
 * Keeps the WAL of a SQLite file small while the process runs, off the request path: the
 * checkpoints run on a thread of their own (one per JS thread, shared by its files), never
 * inside a commit that appends or applies. On a timer (`intervalMs`) a WAL with frames
 * in it is folded into the database file and truncated; between turns, a WAL past
 * WAL_BUSY_BYTES is checkpointed (PASSIVE: it waits for nobody) so it stays bounded under
 * a steady load. SQLite's own checkpoint, which runs inside whichever commit reaches
 * `wal_autocheckpoint`, is left as a backstop (`backstopPages`). The thread's
 * connections have no busy timeout: when another connection is writing or still reads
 * old frames, SQLite copies what it can and the rest waits for the next turn. A WAL that
 * is empty is not touched (an idle platform writes nothing here).
 */
export class WalCheckpointer {
  private closed = false;

  constructor(private readonly file: string, intervalMs = WAL_CHECKPOINT_INTERVAL_MS) {
    checkpointThread().postMessage({ add: file, intervalMs });
    thread!.files++;
  }

  /** The `wal_autocheckpoint` (pages) for the writers of a file of `pageSize` byte pages. */
  static backstopPages(pageSize: number): number {
    return Math.ceil(WAL_AUTOCHECKPOINT_BACKSTOP_BYTES / pageSize);
  }

  /** Asks for a turn now: fold the WAL into the database file and truncate it, as far as other connections allow. */
  checkpoint(): void {
    if (!this.closed) thread?.worker.postMessage({ now: this.file });
  }

  /**
   * Resolves once the thread has closed its connection to the file, so whoever removes the
   * file's directory next finds nothing reopened or still open in it (the thread reads its
   * messages in order: an `add` still queued behind a busy turn is done before this).
   */
  close(): Promise<void> {
    if (this.closed || !thread) return Promise.resolve();
    this.closed = true;
    const ticket = nextTicket++;
    const { worker } = thread;
    const released = new Promise<void>((resolve) => releases.set(ticket, { worker, release: resolve }));
    worker.postMessage({ remove: this.file, ticket });
    if (--thread.files === 0) {
      // The thread's last file: it ends once it has closed the connection.
      thread = null;
      void released.then(() => worker.terminate());
    }
    return released;
  }
}
