import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventLog, WAL_BUSY_BYTES, WalCheckpointer } from '@crawlhub/eventlog';
import { createEvent } from '@crawlhub/contracts';
import { systemStamps } from '../support/stamps';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const walSize = (file: string) => statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
/** A WAL frame of a 4 KB page: the page and its 24-byte header. */
const FRAME_4K = 4096 + 24;

/**
 * An idle platform wore the disk: every consumer's heartbeat rewrote a 64 KB page of the
 * log's file, about 10 MB a minute, into a WAL that was never checkpointed while it ran.
 */
describe('SqliteEventLog at rest', () => {
  it('writes nothing to the log file while its consumers wait, and heartbeats all its members in one 4 KB write per beat', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawlhub-log-'));
    const [file, membersFile] = [join(dir, 'eventlog.db'), join(dir, 'eventlog-members.db')];
    // Heartbeats every 200 ms (a third of the session timeout).
    const log = new SqliteEventLog({ file, partitions: 4, sessionTimeoutMs: 600, pollIntervalMs: 20 });
    await log.ensureTopics(['quiet']);
    const consumers = await Promise.all([1, 2, 3, 4, 5].map((i) => log.consume({ groupId: `g${i}`, topics: ['quiet'], handler: async () => undefined })));
    try {
      await sleep(300);
      const [logWal, membersWal] = [walSize(file), walSize(membersFile)];
      await sleep(2_000);
      expect(walSize(file)).toBe(logWal);
      // About 10 beats of one frame each (not one per consumer: 50).
      const frames = (walSize(membersFile) - membersWal) / FRAME_4K;
      expect(frames).toBeGreaterThanOrEqual(5);
      expect(frames).toBeLessThanOrEqual(14);
      // The members are all still there, so no partition moved.
      for (const c of consumers) expect(c.assignment().quiet).toEqual([0, 1, 2, 3]);
    } finally {
      for (const c of consumers) await c.stop();
      await log.close();
    }
  });
});

describe('WalCheckpointer', () => {
  it('folds the WAL into the database file on its timer, without waiting for a reader of older frames', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'crawlhub-wal-')), 'views.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v BLOB)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    for (let i = 0; i < 50; i++) insert.run(Buffer.alloc(10_000, i));
    // A reader in the middle of a read transaction (another connection) keeps its snapshot.
    const reader = new Database(file);
    reader.exec('BEGIN');
    expect(reader.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 50 });
    for (let i = 0; i < 50; i++) insert.run(Buffer.alloc(10_000, i));
    const checkpointer = new WalCheckpointer(file, 100);
    try {
      const t0 = Date.now();
      checkpointer.checkpoint();
      expect(Date.now() - t0).toBeLessThan(1_000);
      expect(walSize(file)).toBeGreaterThan(0);

      reader.exec('COMMIT');
      await sleep(500);
      expect(walSize(file)).toBe(0);
      expect(statSync(file).size).toBeGreaterThan(100 * 10_000);
      const fresh = new Database(file, { readonly: true });
      expect(fresh.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 100 });
      fresh.close();
    } finally {
      await checkpointer.close();
      reader.close();
      db.close();
    }
  });

  it('checkpoints a WAL past WAL_BUSY_BYTES on its own thread, between timed turns, while the writer never does', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'crawlhub-wal-')), 'log.db');
    const db = new Database(file);
    db.pragma('page_size = 65536');
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0'); // this writer never checkpoints
    db.exec('CREATE TABLE t (v BLOB)');
    // The timed turn is an hour away: only the size can trigger a checkpoint.
    const checkpointer = new WalCheckpointer(file, 3_600_000);
    try {
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      const blob = Buffer.alloc(1024 * 1024, 7);
      for (let i = 0; i < (WAL_BUSY_BYTES * 1.5) / blob.length; i++) insert.run(blob);
      expect(statSync(file).size).toBeLessThan(1024 * 1024);
      const deadline = Date.now() + 10_000;
      while (statSync(file).size < WAL_BUSY_BYTES && Date.now() < deadline) await sleep(100);
      // The frames are in the database file, and SQLite reuses the WAL from its start.
      expect(statSync(file).size).toBeGreaterThanOrEqual(WAL_BUSY_BYTES);
    } finally {
      await checkpointer.close();
      db.close();
    }
  });

  // A suite's temp directory failed to go (ENOTEMPTY): the thread, busy with another file's
  // checkpoint, opened a closed log's files after its close() had returned, and recreated one.
  it('has let go of a closed event log\'s files before its close() resolves, even while busy checkpointing another file', async () => {
    const busyFile = join(mkdtempSync(join(tmpdir(), 'crawlhub-wal-')), 'big.db');
    const busy = new Database(busyFile);
    busy.pragma('journal_mode = WAL');
    busy.pragma('wal_autocheckpoint = 0');
    busy.exec('CREATE TABLE t (v BLOB)');
    const insert = busy.prepare('INSERT INTO t (v) VALUES (?)');
    const busyCheckpointer = new WalCheckpointer(busyFile, 3_600_000);
    try {
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 48; i++) insert.run(Buffer.alloc(1024 * 1024, i));
        // The thread folds 48 MB into the big file while the log opens and closes.
        busyCheckpointer.checkpoint();
        const dir = mkdtempSync(join(tmpdir(), 'crawlhub-close-'));
        const log = new SqliteEventLog({ file: join(dir, 'eventlog.db'), partitions: 2 });
        await log.ensureTopics(['t']);
        await log.append('t', [createEvent({ type: 'e', key: 'k', data: {}, actor: { kind: 'system', id: 'test' } }, systemStamps)]);
        await log.close();
        // SQLite deletes a WAL and its shm when the last connection to the file closes.
        expect(readdirSync(dir).filter((f) => f.endsWith('-wal') || f.endsWith('-shm'))).toEqual([]);
        for (const f of readdirSync(dir)) unlinkSync(join(dir, f));
        // Once the thread is idle again, nothing has come back.
        await sleep(1_500);
        expect(readdirSync(dir)).toEqual([]);
        rmdirSync(dir);
      }
    } finally {
      await busyCheckpointer.close();
      busy.close();
    }
  }, 30_000);

  it('has let go of a file before its close() resolves when the thread of a file closed just before is still ending', async () => {
    for (let round = 0; round < 10; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'crawlhub-handover-'));
      const [first, second] = [join(dir, 'first.db'), join(dir, 'second.db')];
      // The first file is the thread's last: closing it ends that thread, and the next
      // file starts a thread of its own while the first one is still ending.
      const firstClosed = new WalCheckpointer(first).close();
      await new WalCheckpointer(second).close();
      // The thread opens (so creates) a file it checkpoints: by now it has, and closed it.
      expect(readdirSync(dir)).toContain('second.db');
      await firstClosed;
      for (const f of readdirSync(dir)) unlinkSync(join(dir, f));
      await sleep(200);
      expect(readdirSync(dir)).toEqual([]);
      rmdirSync(dir);
    }
  }, 30_000);
});
