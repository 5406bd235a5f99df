import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDLE_SETTLE_MS, idleVerdicts, measureIdleDisk } from '../../bench/idle.bench';
import { describeIf } from '../support/skip';
import { freePort, MAIN, spawnPlatform, SpawnedPlatform } from '../support/spawn-platform';

const IDLE_SECONDS = 60;
jest.setTimeout(IDLE_SETTLE_MS + IDLE_SECONDS * 1000 + 90_000);

/**
 * The whole platform (`npm start`, every role) started with nothing to do must not wear
 * the disk: it wrote about 10 MB a minute (every consumer's heartbeat rewrote a 64 KB page
 * of the log) into a WAL that was never checkpointed while it ran. After start-up and the
 * first checkpoint, a minute of nothing: the bytes the process writes and its SQLite files
 * (those of the lane: the log, the views, or both) stay within the targets that
 * `npm run bench:idle` prints.
 */
describeIf({ met: existsSync('/proc/self/io'), reason: 'no /proc/<pid>/io (Linux only) to count the bytes a process writes' })('an idle platform', () => {
  let platform: SpawnedPlatform | undefined;
  afterAll(() => platform?.stop('SIGTERM', 10_000));

  it('writes little to disk, checkpoints its WALs while running, and its files do not grow', async () => {
    expect(existsSync(MAIN)).toBe(true); // `npm run build` first (npm test does it)
    const dataDir = mkdtempSync(join(tmpdir(), 'crawlhub-idle-'));
    const unique = `idle${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      // On the Kafka and MongoDB lanes: topics and a database of this test's own.
      EVENT_LOG_NAMESPACE: `${unique}-`,
      MONGODB_DATABASE: `crawlhub_${unique}`,
      CRAWLHUB_ADMIN_KEY: 'idle-platform-admin-key-0001',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    };
    for (const port of ['DASH_PORT', 'STORAGE_PORT', 'FETCH_PORT', 'EXTRACT_PORT', 'PROXY_PORT', 'STATS_PORT']) env[port] = String(await freePort());
    platform = await spawnPlatform({ env, roles: 'all', name: 'idle platform', startTimeoutMs: 60_000 });
    await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));

    const figures = await measureIdleDisk(platform.child.pid!, dataDir, IDLE_SECONDS);
    const verdicts = idleVerdicts(figures);
    console.log(verdicts.map((v) => `${v.figure} (target ${v.target}: ${v.met ? 'met' : 'NOT met'})`).join('\n'));
    expect(figures.files.map((f) => f.name)).toEqual(expect.arrayContaining([expect.stringMatching(/\.db$/)]));
    expect(verdicts.filter((v) => !v.met)).toEqual([]);
    expect(platform.exited()).toBe(false);
  });
});
