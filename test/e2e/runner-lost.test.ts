import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, FIFO_PRELUDE, nodeScript } from '../support/runner-helpers';
import { alive, freePort, isolatedPlatformEnv, MAIN, SpawnedPlatform, spawnPlatform } from '../support/spawn-platform';

jest.setTimeout(120_000);

const KEY = 'runner-lost-admin-key-0001';
const HEARTBEAT_MS = 250;
const LOST_MS = 3000;
/** How late the job of a lost runner may end, after its runner's last heartbeat (docs/runner.md, "Lost runners"). */
const LIMIT_MS = LOST_MS + 2 * HEARTBEAT_MS;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A spider that writes one item with its pid, then a log line every 100 ms (so that once its
 * runner is gone it dies on the FIFO nobody reads), and exits 0 after `ms` (a spider argument).
 */
const SPIDER = nodeScript(
  `${FIFO_PRELUDE} out('ITM',{pid:process.pid}); setInterval(()=>out('LOG',{time:Date.now(),level:20,message:'tick'}),100);` +
    ` setTimeout(()=>process.exit(0), Number(JSON.parse(process.env.SHUB_JOB_DATA).spider_args.ms));`,
);

/**
 * A runner SIGKILLed mid-job and never restarted: the dash role's runner checks find it
 * silent for RUNNER_LOST_MS and its job ends as failed, with the reason in the job's log
 * and in the activity. Meanwhile a healthy runner's job, running for longer than
 * RUNNER_LOST_MS, is left alone and finishes normally. Processes as in production: the
 * API roles in one, each runner in its own.
 */
describe('runner: a runner that never comes back', () => {
  it('has its running jobs finished as failed within the limit, and leaves healthy runners alone', async () => {
    expect(existsSync(MAIN)).toBe(true); // `npm run build` first (npm test does it)
    const dataDir = mkdtempSync(join(tmpdir(), 'crawlhub-runner-lost-'));
    const ports = { storage: await freePort(), dash: await freePort() };
    const unique = `rl${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const env = {
      ...isolatedPlatformEnv({ unique, dataDir, ports, adminKey: KEY }),
      RUNNER_POLL_MS: '100',
      RUNNER_UNITS: '1',
      RUNNER_HEARTBEAT_MS: String(HEARTBEAT_MS),
      RUNNER_LOST_MS: String(LOST_MS),
      LOG_LEVEL: 'warn',
    };
    const c = client({ dashUrl: `http://127.0.0.1:${ports.dash}/api`, storageUrl: `http://127.0.0.1:${ports.storage}` }, KEY);
    const started: SpawnedPlatform[] = [];
    const start = async (roles: string, extra: Record<string, string> = {}) => {
      const p = await spawnPlatform({ env: { ...env, ...extra }, roles, name: roles, startTimeoutMs: 60_000 });
      started.push(p);
      return p;
    };
    const pids: number[] = [];
    const pidOf = async (key: string) => {
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(50)) {
        const [item] = await c.lines(`/items/${key}`);
        if (item) return pids[pids.push(item.pid as number) - 1];
      }
      throw new Error(`job ${key} wrote no item`);
    };
    try {
      await start('storage,dash,projector');
      const doomed = await start('runner', { RUNNER_ID: 'doomed' });
      await c.register(1, 'ticker', SPIDER);
      const lostJob = await c.run(1, 'ticker', { ms: '600000' });
      expect(await c.waitFor(lostJob, (m) => m.state === 'running')).toMatchObject({ _runner: 'doomed' });
      const lostPid = await pidOf(lostJob);

      // The healthy runner's job runs for three times RUNNER_LOST_MS.
      await start('runner', { RUNNER_ID: 'healthy' });
      const healthyJob = await c.run(1, 'ticker', { ms: String(3 * LOST_MS) });
      expect(await c.waitFor(healthyJob, (m) => m.state === 'running')).toMatchObject({ _runner: 'healthy' });
      await pidOf(healthyJob);

      await sleep(2 * HEARTBEAT_MS); // a heartbeat or two of both runners
      const killedAt = Date.now();
      await doomed.stop('SIGKILL');
      for (const deadline = Date.now() + 5_000; alive(lostPid) && Date.now() < deadline; ) await sleep(50);
      expect(alive(lostPid)).toBe(false);

      const failed = await c.waitFor(lostJob, (m) => m.state === 'finished', LIMIT_MS + 20_000);
      const endedAfter = Date.now() - killedAt;
      expect(failed).toMatchObject({ state: 'finished', close_reason: 'failed', completed_by: 'jobrunner', _runner: 'doomed' });
      // Not before the runner was silent for RUNNER_LOST_MS (it heartbeat at most one interval before the kill), and within the limit.
      expect((failed.finished_time as number) - killedAt).toBeGreaterThanOrEqual(LOST_MS - HEARTBEAT_MS);
      expect((failed.finished_time as number) - killedAt).toBeLessThanOrEqual(LIMIT_MS);

      const why = /^runner doomed sent no heartbeat for (\d+) ms \(RUNNER_LOST_MS is 3000\): the job's process is presumed lost, the job finishes as failed$/;
      // The dash role writes the line once the decision is applied: shortly after the state changed.
      let logs = await c.lines(`/logs/${lostJob}`);
      for (const deadline = Date.now() + 10_000; !String(logs[logs.length - 1]?.message).startsWith('[crawlhub runner] runner doomed') && Date.now() < deadline; ) {
        await sleep(100);
        logs = await c.lines(`/logs/${lostJob}`);
      }
      expect(logs.map((l) => l.message)).toContain('tick');
      const last = logs[logs.length - 1];
      expect(last.level).toBe(40);
      expect(String(last.message).replace('[crawlhub runner] ', '')).toMatch(why);
      expect(String(last.message).startsWith('[crawlhub runner] ')).toBe(true);
      const activity = (await c.lines('/activity/1?count=100')).filter((a) => a.job === lostJob);
      expect(activity.map((a) => a.event)).toEqual(['job:completed', 'job:started', 'job:scheduled']);
      expect(activity[0]).toMatchObject({ user: 'jobrunner', close_reason: 'failed' });
      expect(String(activity[0].message)).toMatch(why);
      expect(Number(why.exec(String(activity[0].message))![1])).toBeGreaterThanOrEqual(LOST_MS);

      // The healthy job ran on past RUNNER_LOST_MS and through the checks that failed the other, and ends as it should.
      expect((await c.meta(healthyJob)).state).toBe('running');
      const healthy = await c.waitFor(healthyJob, (m) => m.state === 'finished', 6 * LOST_MS);
      expect(healthy).toMatchObject({ close_reason: 'finished', _runner: 'healthy' });
      expect((healthy.finished_time as number) - (healthy.running_time as number)).toBeGreaterThanOrEqual(3 * LOST_MS);
      console.log(`runner lost: the killed runner's job ended ${endedAfter} ms after the SIGKILL (RUNNER_LOST_MS ${LOST_MS}, RUNNER_HEARTBEAT_MS ${HEARTBEAT_MS})`);
    } finally {
      await Promise.all(started.map((p) => p.stop('SIGTERM', 20_000)));
      for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
