import Database from 'better-sqlite3';
import { statSync } from 'node:fs';

/** How often a WAL with frames in it is folded into its database file and truncated. */
export const WAL_CHECKPOINT_INTERVAL_MS = 30_000;

/**
 * Keeps the WAL of a SQLite file small while the process runs. SQLite's own
 * checkpoint runs only once the WAL holds 1,000 pages (64 MB at the event log's page
 * size), on whichever commit reaches it; a platform with little to do never gets
 * there, so the WAL only grew and the database file stayed as it was at start until
 * shutdown. This checkpoints on a timer, off the request path, on a connection of its
 * own without a busy timeout: when another connection is writing or still reads old
 * frames, SQLite copies what it can and the rest waits for the next turn, so the timer
 * never blocks the process. A WAL that is empty is not touched (an idle platform
 * writes nothing here).
 */
export class WalCheckpointer {
  private readonly db: Database.Database;
  private readonly timer: NodeJS.Timeout;
  /** Warn once per run of failures, not every turn. */
  private failing = false;

  constructor(private readonly file: string, intervalMs = WAL_CHECKPOINT_INTERVAL_MS) {
    this.db = new Database(file, { timeout: 0 });
    this.timer = setInterval(() => this.checkpoint(), intervalMs);
    this.timer.unref();
  }

  /** Folds the WAL into the database file and truncates it, as far as other connections allow. */
  checkpoint(): void {
    try {
      if (!statSync(`${this.file}-wal`, { throwIfNoEntry: false })?.size) return;
      this.db.pragma('wal_checkpoint(TRUNCATE)');
      this.failing = false;
    } catch (e) {
      if (!this.failing) process.emitWarning(`WAL checkpoint of ${this.file}: ${(e as Error).message}; retrying every turn`);
      this.failing = true;
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.db.close();
  }
}
