import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEvent } from '@crawlhub/contracts';
import { SqliteEventLog } from '@crawlhub/eventlog';
import { eventLogContract } from '../contract/event-log.contract';
import { systemStamps } from '../support/stamps';

jest.setTimeout(60_000);

eventLogContract('sqlite', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'crawlhub-log-')), 'eventlog.db');
  return {
    settleMs: 2_000,
    open: async () => new SqliteEventLog({ file, partitions: 4, sessionTimeoutMs: 1_000, pollIntervalMs: 20 }),
  };
});

/**
 * A member whose process died (SIGKILL) leaves its row in group_members (in the members'
 * file beside the log). On this host the log sees that its process is gone and drops it
 * at the next rebalance, so a restarted platform gets every partition at once instead of
 * after the session timeout (during which its writes would wait for views in vain and
 * answer 503).
 */
describe('SqliteEventLog consumer groups after a SIGKILL', () => {
  it("drops a member of this host whose process is gone, and keeps a live one's share", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'crawlhub-log-')), 'eventlog.db');
    const log = new SqliteEventLog({ file, partitions: 4, sessionTimeoutMs: 120_000, pollIntervalMs: 20 });
    await log.ensureTopics(['ghosts']);
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const raw = new Database(log.members.file);
    try {
      raw.prepare('INSERT INTO group_members (group_id, member_id, heartbeat_at) VALUES (?, ?, ?)').run('g', `${hostname()}:${other.pid}:a-dead-member`, Date.now());
      const handler = async () => undefined;

      const withLiveOther = await log.consume({ groupId: 'g', topics: ['ghosts'], handler });
      await new Promise((r) => setTimeout(r, 200));
      expect(withLiveOther.assignment().ghosts).toHaveLength(2);
      await withLiveOther.stop();

      other.kill('SIGKILL');
      await new Promise((r) => other.once('exit', r));
      const afterKill = await log.consume({ groupId: 'g', topics: ['ghosts'], handler });
      await new Promise((r) => setTimeout(r, 200));
      expect(afterKill.assignment().ghosts).toEqual([0, 1, 2, 3]);
      await afterKill.stop();
    } finally {
      other.kill('SIGKILL');
      raw.close();
      await log.close();
    }
  });
});

/**
 * Another process can hold the file's lock past busy_timeout (a long write, a checkpoint):
 * the consumer's reads and commits then fail with SQLITE_BUSY. The consumer must neither
 * crash nor lose its place: it waits and delivers what was appended, once the lock is gone.
 */
describe('SqliteEventLog consumers while another process holds the lock', () => {
  it('pause on SQLITE_BUSY and deliver every event afterwards, without an unhandled rejection', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'crawlhub-log-')), 'eventlog.db');
    const log = new SqliteEventLog({ file, partitions: 2, sessionTimeoutMs: 5_000, pollIntervalMs: 20, busyTimeoutMs: 50 });
    await log.ensureTopics(['busy']);
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    const warned = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const seen: string[] = [];
    const consumptions = await Promise.all(
      [1, 2].map((concurrently) =>
        log.consume({ groupId: `g${concurrently}`, topics: ['busy'], partitionsConcurrently: concurrently, handler: async (b) => void (concurrently === 1 && seen.push(...b.events.map((e) => e.event.key))) }),
      ),
    );
    const blocker = new Database(file);
    try {
      await log.append('busy', [createEvent({ type: 't', key: 'before', data: {}, actor: { kind: 'system', id: 'test' } }, systemStamps)]);
      blocker.exec('BEGIN EXCLUSIVE');
      // Longer than a rebalance period (a quarter of the session timeout): the groups' commits of the event appended before fail meanwhile.
      await new Promise((r) => setTimeout(r, 1_600));
      expect(warned).toHaveBeenCalledWith(expect.stringContaining('database is locked'));
      blocker.exec('COMMIT');
      await log.append('busy', [createEvent({ type: 't', key: 'after', data: {}, actor: { kind: 'system', id: 'test' } }, systemStamps)]);
      const until = Date.now() + 10_000;
      while (new Set(seen).size < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      // At least once: an event whose commit failed may come twice.
      expect([...new Set(seen)].sort()).toEqual(['after', 'before']);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      warned.mockRestore();
      blocker.close();
      for (const c of consumptions) await c.stop();
      await log.close();
    }
  });
});
