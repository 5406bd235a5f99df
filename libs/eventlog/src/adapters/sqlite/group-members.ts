/* eslint-disable no-restricted-properties, no-restricted-syntax -- the log's own bookkeeping: members' heartbeats are compared between processes (wall time), member ids name consumers, never in an event, a view or an answer. */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import { WalCheckpointer } from './wal-checkpointer';

/**
 * The members of the SQLite log's consumer groups, in a small file beside the log
 * (`eventlog.db` -> `eventlog-members.db`). Heartbeats are the only writes of an idle
 * platform: in the log's own file (64 KB pages, for bulk events) every heartbeat of every
 * consumer rewrote a 64 KB page into the WAL, about 10 MB a minute for a platform doing
 * nothing. Here the heartbeat of all of one log instance's members is one transaction
 * on a 4 KB page, every third of the session timeout, from a timer of its own (a
 * consumer busy with a long batch keeps its place). Membership needs no history: a
 * member that is gone is simply absent, so nothing is lost with the file.
 */
export class GroupMembers {
  private readonly db: Database.Database;
  private readonly checkpointer: WalCheckpointer;
  /** This instance's members: member id -> group id. */
  private readonly own = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private failing = false;
  private readonly upsert: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly expire: Database.Statement;
  private readonly list: Database.Statement;
  private readonly beatAll: () => void;

  constructor(
    readonly file: string,
    private readonly sessionTimeoutMs: number,
    busyTimeoutMs: number,
  ) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // Losing the last heartbeat on a power cut costs nothing: the process is gone too.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    this.db.exec(`CREATE TABLE IF NOT EXISTS group_members (
      group_id TEXT NOT NULL, member_id TEXT NOT NULL, heartbeat_at INTEGER NOT NULL,
      PRIMARY KEY (group_id, member_id)) WITHOUT ROWID`);
    this.upsert = this.db.prepare(
      `INSERT INTO group_members (group_id, member_id, heartbeat_at) VALUES (?, ?, ?)
       ON CONFLICT (group_id, member_id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`,
    );
    this.remove = this.db.prepare('DELETE FROM group_members WHERE group_id = ? AND member_id = ?');
    this.expire = this.db.prepare('DELETE FROM group_members WHERE group_id = ? AND heartbeat_at < ?');
    this.list = this.db.prepare('SELECT member_id FROM group_members WHERE group_id = ? ORDER BY member_id').pluck();
    this.beatAll = this.db.transaction(() => {
      const now = Date.now();
      for (const [memberId, groupId] of this.own) this.upsert.run(groupId, memberId, now);
    });
    this.checkpointer = new WalCheckpointer(file);
  }

  /** Adds a member now (throws when the file cannot be written); its heartbeats follow. */
  join(groupId: string, memberId: string): void {
    this.upsert.run(groupId, memberId, Date.now());
    this.own.set(memberId, groupId);
    if (!this.timer) {
      this.timer = setInterval(() => this.beat(), Math.max(1, Math.floor(this.sessionTimeoutMs / 3)));
      this.timer.unref();
    }
  }

  leave(groupId: string, memberId: string): void {
    this.own.delete(memberId);
    if (this.own.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
    this.remove.run(groupId, memberId);
  }

  /**
   * The group's live members, sorted: members whose heartbeat is older than the session
   * timeout, and members of this host whose process is gone, are removed first.
   */
  live(groupId: string): string[] {
    this.expire.run(groupId, Date.now() - this.sessionTimeoutMs);
    const listed = this.list.all(groupId) as string[];
    const dead = listed.filter(isDeadLocalMember);
    for (const id of dead) this.remove.run(groupId, id);
    return listed.filter((id) => !dead.includes(id));
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.db.close();
    await this.checkpointer.close();
  }

  /** Every member of this instance, in one transaction (re-added if another member expired it meanwhile). */
  private beat(): void {
    try {
      this.beatAll();
      this.failing = false;
    } catch (e) {
      // The file is locked past busy_timeout or the disk is full: never a crash; the next beat tries again.
      if (!this.failing) process.emitWarning(`event log group heartbeat: ${(e as Error).message}; retrying every beat`);
      this.failing = true;
    }
  }
}

/** `dir/eventlog.db` -> `dir/eventlog-members.db`. */
export function membersFileOf(logFile: string): string {
  const ext = extname(logFile);
  return join(dirname(logFile), `${basename(logFile, ext)}-members${ext}`);
}

/**
 * Member ids name their host and process (`<host>:<pid>:<uuid>`), so a member whose
 * process is gone from this host (SIGKILL) is dropped at once instead of holding its
 * partitions until its heartbeat expires: a restarted platform consumes right away and
 * its writes do not wait out the session timeout (the log is a local file, so its
 * members are normally on this host).
 */
const HOST = hostname();

export function memberIdOfThisProcess(): string {
  return `${HOST}:${process.pid}:${randomUUID()}`;
}

/** Whether the member's process is known to be gone: on this host, and no process with its pid. */
export function isDeadLocalMember(memberId: string): boolean {
  const [host, pid] = memberId.split(':');
  if (host !== HOST || !/^\d+$/.test(pid ?? '')) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
