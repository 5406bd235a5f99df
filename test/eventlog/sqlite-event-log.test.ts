import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventLog } from '@crawlhub/eventlog';
import { eventLogContract } from '../contract/event-log.contract';

jest.setTimeout(60_000);

eventLogContract('sqlite', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'crawlhub-log-')), 'eventlog.db');
  return {
    settleMs: 2_000,
    open: async () => new SqliteEventLog({ file, partitions: 4, sessionTimeoutMs: 1_000, pollIntervalMs: 20 }),
  };
});

/**
 * A member whose process died (SIGKILL) leaves its row in group_members. On this host the
 * log sees that its process is gone and drops it at the next rebalance, so a restarted
 * platform gets every partition at once instead of after the session timeout (during
 * which its writes would wait for views in vain and answer 503).
 */
describe('SqliteEventLog consumer groups after a SIGKILL', () => {
  it("drops a member of this host whose process is gone, and keeps a live one's share", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'crawlhub-log-')), 'eventlog.db');
    const log = new SqliteEventLog({ file, partitions: 4, sessionTimeoutMs: 120_000, pollIntervalMs: 20 });
    await log.ensureTopics(['ghosts']);
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const raw = new Database(file);
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
