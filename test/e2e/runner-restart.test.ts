import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, FIFO_PRELUDE, nodeScript } from '../support/runner-helpers';
import { alive, freePort, MAIN, spawnPlatform } from '../support/spawn-platform';

jest.setTimeout(120_000);

const KEY = 'runner-restart-admin-key-01';

/** The platform with a runner as its own process (the built `npm start`), so that it can be SIGKILLed. */
function startPlatform(dataDir: string, ports: { storage: number; dash: number }, unique: string) {
  return spawnPlatform({
    env: {
      // On the Kafka and MongoDB lanes: topics and a database of this test's own.
      EVENT_LOG_NAMESPACE: `${unique}-`,
      MONGODB_DATABASE: `crawlhub_${unique}`,
      DATA_DIR: dataDir,
      STORAGE_PORT: String(ports.storage),
      DASH_PORT: String(ports.dash),
      CRAWLHUB_ADMIN_KEY: KEY,
      RUNNER_POLL_MS: '100',
      RUNNER_ID: '',
    },
    roles: 'storage,dash,projector,runner',
  });
}

/**
 * A runner that dies (SIGKILL) while its job runs leaves the job `running`; when it
 * starts again (same data dir, so the same runner id) it finishes that job as failed.
 */
describe('runner: restart after SIGKILL', () => {
  it('finishes the jobs it left running as failed', async () => {
    expect(existsSync(MAIN)).toBe(true); // `npm run build` first (npm test does it)
    const dataDir = mkdtempSync(join(tmpdir(), 'crawlhub-runner-restart-'));
    const ports = { storage: await freePort(), dash: await freePort() };
    const c = client({ dashUrl: `http://127.0.0.1:${ports.dash}/api`, storageUrl: `http://127.0.0.1:${ports.storage}` }, KEY);
    const unique = `rr${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    let platform = await startPlatform(dataDir, ports, unique);
    let spiderPid = 0;
    try {
      const runnerId = readFileSync(join(dataDir, 'runner-id'), 'utf8').trim();
      // Writes a line every 50 ms: once its runner is gone, the FIFO has no reader and it dies (EPIPE).
      await c.register(1, 'forever', nodeScript(`${FIFO_PRELUDE} out('ITM',{pid:process.pid}); setInterval(()=>out('LOG',{time:Date.now(),level:20,message:'tick'}),50);`));
      const key = await c.run(1, 'forever');
      const running = await c.waitFor(key, (m) => m.state === 'running');
      expect(running._runner).toBe(runnerId);
      spiderPid = (await c.waitFor(key, () => true), await waitForItem(c, key));
      // Some of its log lines are stored before the kill (they are flushed about once a second).
      const flushed = Date.now() + 10_000;
      while (!(await c.lines(`/logs/${key}`)).some((l) => l.message === 'tick') && Date.now() < flushed) await new Promise((r) => setTimeout(r, 100));

      platform.kill('SIGKILL');
      await platform.waitExit();
      // Its process died with it, or soon after, on its next write to a FIFO nobody reads.
      const deadline = Date.now() + 5_000;
      while (alive(spiderPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(alive(spiderPid)).toBe(false);

      const workRoot = join(tmpdir(), `crawlhub-runner-${runnerId}`);
      expect(readdirSync(workRoot)).toHaveLength(1); // the dead runner's job directory
      platform = await startPlatform(dataDir, ports, unique);
      expect(readFileSync(join(dataDir, 'runner-id'), 'utf8').trim()).toBe(runnerId);
      expect(readdirSync(workRoot)).toEqual([]);
      const meta = await c.waitFor(key);
      expect(meta).toMatchObject({ state: 'finished', close_reason: 'failed', completed_by: 'jobrunner' });
      const logs = (await c.lines(`/logs/${key}`)).map((l) => l.message as string);
      expect(logs).toContain('tick');
      expect(logs[logs.length - 1]).toBe(`[crawlhub runner] runner ${runnerId} restarted: the job's process was lost, the job finishes as failed`);
      // The log positions continue after what the job had written: nothing overwritten.
      expect(logs.filter((m) => m.startsWith('[crawlhub runner] runner ') && m.includes('starts job'))).toHaveLength(1);
      const events = (await c.lines('/activity/1')).filter((a) => a.job === key).map((a) => a.event);
      expect(events).toEqual(['job:completed', 'job:started', 'job:scheduled']);

      // The restarted runner runs new jobs as before.
      await c.register(1, 'quick', nodeScript(`${FIFO_PRELUDE} out('ITM',{ok:true})`));
      const next = await c.run(1, 'quick');
      expect(await c.waitFor(next)).toMatchObject({ close_reason: 'finished', _runner: runnerId });
    } finally {
      platform.kill('SIGTERM');
      if (spiderPid && alive(spiderPid)) process.kill(spiderPid, 'SIGKILL');
      await platform.waitExit();
    }
  });
});

async function waitForItem(c: ReturnType<typeof client>, key: string): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const items = await c.lines(`/items/${key}`);
    if (items.length) return items[0].pid as number;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the spider wrote no item');
}
