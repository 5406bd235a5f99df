import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client } from '../support/runner-helpers';
import { alive, freePort, isolatedPlatformEnv, MAIN, spawnPlatform } from '../support/spawn-platform';

jest.setTimeout(180_000);

const KEY = 'runner-crash-admin-key-0001';
const JOBS = 100;
const SHORT = 10; // jobs that write their items at once and exit: finished before the kill
const UNITS = 60; // the runner's capacity: 60 long jobs running at the kill, 30 pending
const ITEMS = 60; // items per job
const EVERY_MS = 250; // a long job writes an item every 250 ms (15 s in all)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A spider: writes ITEMS items `{job, seq, pad}` to the FIFO (all at once, or one every
 * `every_ms`), then exits 0. After each write the FIFO accepted, it appends the seq to
 * its own file under WRITTEN_DIR: what the job handed to the runner.
 */
const SPIDER = `'use strict';
const fs = require('fs');
const key = process.env.SHUB_JOBKEY;
const args = JSON.parse(process.env.SHUB_JOB_DATA).spider_args;
const n = Number(args.items), every = Number(args.every_ms);
const written = process.env.WRITTEN_DIR + '/' + key.replace(/\\//g, '-');
fs.writeFileSync(written, 'pid ' + process.pid + '\\n');
const fd = fs.openSync(process.env.SHUB_FIFO_PATH, 'w');
const pad = 'x'.repeat(200);
let seq = 0;
const write = () => {
  fs.writeSync(fd, 'ITM ' + JSON.stringify({ job: key, seq, pad }) + '\\n');
  fs.appendFileSync(written, seq + '\\n');
  seq++;
};
if (every === 0) {
  while (seq < n) write();
} else {
  const timer = setInterval(() => {
    write();
    if (seq >= n) clearInterval(timer);
  }, every);
}
`;

/**
 * Kills the API (storage, dash, projector in one process) and the runner (its own
 * process) with SIGKILL while 60 of 100 jobs run, restarts both, and checks that every
 * job reaches its documented final state and that no acknowledged item is lost or doubled.
 *
 * "Acknowledged": an item the storage API returned before the kill (the runner writes
 * through in-process commands, so what the storage API reads is at least everything the
 * runner had flushed and the projector applied; a batch in the log but not yet applied
 * must show up after the restart too). Items the job wrote to its FIFO that the runner had
 * not flushed when it died are not acknowledged; they may be lost, and the test reports how
 * many were. Positional writes mean the items readable for a job are always exactly the
 * first N it wrote, in order: no hole, no duplicate.
 */
describe('runner: SIGKILL of the API and the runner while 100 jobs run', () => {
  it('brings every job to its final state and loses no acknowledged item', async () => {
    expect(existsSync(MAIN)).toBe(true); // `npm run build` first (npm test does it)
    const dir = mkdtempSync(join(tmpdir(), 'crawlhub-runner-crash-'));
    const dataDir = join(dir, 'data');
    const writtenDir = join(dir, 'written');
    mkdirSync(dataDir);
    mkdirSync(writtenDir);
    const spiderFile = join(dir, 'spider.js');
    writeFileSync(spiderFile, SPIDER);
    const ports = { storage: await freePort(), dash: await freePort() };
    const unique = `rc${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const runnerId = `crash-${unique}`;
    const c = client({ dashUrl: `http://127.0.0.1:${ports.dash}/api`, storageUrl: `http://127.0.0.1:${ports.storage}` }, KEY);
    const env = {
      ...isolatedPlatformEnv({ unique, dataDir, ports, adminKey: KEY }),
      RUNNER_ID: runnerId,
      RUNNER_UNITS: String(UNITS),
      RUNNER_POLL_MS: '100',
      LOG_LEVEL: 'warn',
    };
    const start = (role: string) => spawnPlatform({ env, roles: role, name: role, startTimeoutMs: 60_000 });
    const writtenBy = (key: string): { pid: number; seqs: number[] } => {
      const file = join(writtenDir, key.replace(/\//g, '-'));
      if (!existsSync(file)) return { pid: 0, seqs: [] };
      const [first, ...rest] = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      return { pid: Number(first.slice(4)), seqs: rest.map(Number) };
    };
    const items = async (key: string) => (await c.lines(`/items/${key}`)) as { job: string; seq: number }[];
    const count = async (state: string) => Number(await c.text(`/jobq/1/count?state=${state}`));

    const t0 = Date.now();
    let api = await start('storage,dash,projector');
    let runner = await start('runner');
    try {
      await c.register(1, 'crashy', [process.execPath, spiderFile], { env: { WRITTEN_DIR: writtenDir } });
      // 100 jobs with distinct arguments, in order (10 short ones first), 10 requests at a time.
      const keys: string[] = [];
      for (let i = 0; i < JOBS; i += 10) {
        const batch = Array.from({ length: Math.min(10, JOBS - i) }, (_, j) => i + j);
        keys.push(...(await Promise.all(batch.map((n) => c.run(1, 'crashy', { n: String(n), items: String(ITEMS), every_ms: String(n < SHORT ? 0 : EVERY_MS) })))));
      }
      const scheduled = Date.now();

      // Until the short jobs finished and the runner is full of long ones, each some way into its items.
      // Each count is one read of the view: never more jobs running at once than the runner has units.
      let mostRunning = 0;
      for (const deadline = Date.now() + 60_000; ; ) {
        const [finished, running] = [await count('finished'), await count('running')];
        mostRunning = Math.max(mostRunning, running);
        if (finished >= SHORT && running >= UNITS) break;
        if (Date.now() > deadline) throw new Error(`never got ${SHORT} finished and ${UNITS} running jobs: ${finished} finished, ${running} running`);
        await sleep(100);
      }
      const full = Date.now();
      await sleep(1_500);

      // What the storage API acknowledges now: every job's state and items. Then SIGKILL both.
      // The 100 jobs are read one by one, not at one instant: a long job may end (and the next
      // pending one start) while they are read, so the states read are only what each job was
      // at its own read. Which jobs ran at the kill is told by their outcome after the restart.
      const before = new Map<string, { state: string; items: { job: string; seq: number }[] }>();
      await Promise.all(keys.map(async (key) => before.set(key, { state: String((await c.meta(key)).state), items: await items(key) })));
      mostRunning = Math.max(mostRunning, await count('running'));
      const killedAt = Date.now();
      await Promise.all([api.stop('SIGKILL'), runner.stop('SIGKILL')]);
      const states = (s: string) => keys.filter((k) => before.get(k)!.state === s);
      const [wasFinished, wasRunning, wasPending] = [states('finished'), states('running'), states('pending')];
      expect(wasFinished.length + wasRunning.length + wasPending.length).toBe(JOBS);
      expect(wasFinished.length).toBeGreaterThanOrEqual(SHORT);
      expect(wasPending.length).toBeGreaterThan(0);
      expect(mostRunning).toBe(UNITS);

      // The jobs' processes die on their next write to a FIFO nobody reads.
      const pids = keys.map((k) => writtenBy(k).pid).filter(Boolean);
      for (const deadline = Date.now() + 10_000; pids.some(alive) && Date.now() < deadline; ) await sleep(50);
      expect(pids.filter(alive)).toEqual([]);

      const dead = Date.now();
      api = await start('storage,dash,projector');
      const apiUp = Date.now();
      runner = await start('runner');
      const restarted = Date.now();

      // Every job reaches a final state: none stays pending or running.
      for (const deadline = Date.now() + 60_000; ; ) {
        const [pending, running] = [await count('pending'), await count('running')];
        if (pending === 0 && running === 0) break;
        if (Date.now() > deadline) throw new Error(`jobs left: ${pending} pending, ${running} running`);
        await sleep(200);
      }
      const done = Date.now();
      const after = new Map<string, Record<string, unknown>>();
      await Promise.all(keys.map(async (key) => after.set(key, await c.meta(key))));
      expect(keys.filter((k) => after.get(k)!.state !== 'finished')).toEqual([]);

      // Running at the kill: the jobs that finish as failed (orphans). A job read as running that
      // is not one ended before the kill; one read as pending may have started before it.
      const orphans = keys.filter((k) => after.get(k)!.close_reason === 'failed');
      const endedMeanwhile = keys.filter((k) => {
        const m = after.get(k)!;
        return m.close_reason === 'finished' && (m.finished_time as number) >= full && (m.finished_time as number) <= killedAt;
      });
      expect(orphans.filter((k) => wasFinished.includes(k))).toEqual([]);
      expect(wasRunning.filter((k) => !orphans.includes(k)).filter((k) => !endedMeanwhile.includes(k))).toEqual([]);
      // Full at the kill but for the units that jobs ending since it was full freed and no claim had taken yet.
      expect(orphans.length).toBeLessThanOrEqual(UNITS);
      expect(orphans.length).toBeGreaterThanOrEqual(UNITS - endedMeanwhile.length);

      let acked = 0;
      let readable = 0;
      let unacked = 0;
      let lostUnacked = 0;
      const orphanLine = `[crawlhub runner] runner ${runnerId} restarted: the job's process was lost, the job finishes as failed`;
      for (const key of keys) {
        const meta = after.get(key)!;
        const now = await items(key);
        const written = writtenBy(key).seqs;
        const had = before.get(key)!.items;
        // Exactly the first N items the job wrote, in order: no hole, no duplicate, nothing it did not write.
        expect(now.map((i) => i.seq)).toEqual(written.slice(0, now.length));
        expect(now.every((i) => i.job === key)).toBe(true);
        // Nothing the storage API had acknowledged is lost.
        expect(now.slice(0, had.length)).toEqual(had);
        acked += had.length;
        readable += now.length;
        const logs = (await c.lines(`/logs/${key}`)).map((l) => l.message as string);
        const starts = logs.filter((m) => m.startsWith(`[crawlhub runner] runner ${runnerId} starts job ${key}`));
        if (orphans.includes(key)) {
          // Its runner died with it: on restart it finishes as failed, its data kept, the reason last in its log.
          // (It may have written all its items: a process that ended just before the kill, its final state not yet written.)
          expect(meta).toMatchObject({ close_reason: 'failed', completed_by: 'jobrunner', _runner: runnerId });
          expect(meta.running_time as number).toBeLessThan(killedAt);
          expect(logs[logs.length - 1]).toBe(orphanLine);
          expect(starts).toHaveLength(1);
          expect(written.length).toBeLessThanOrEqual(ITEMS);
          unacked += written.length - had.length;
          lostUnacked += written.length - now.length;
        } else {
          // Finished before the kill, or pending then and run after the restart: every item it wrote.
          expect(meta).toMatchObject({ close_reason: 'finished', completed_by: 'jobrunner', _runner: runnerId });
          expect(now).toHaveLength(ITEMS);
          expect(written).toHaveLength(ITEMS);
          expect(logs[logs.length - 1]).toBe("[crawlhub runner] the job's process exited with code 0");
          expect(logs).not.toContain(orphanLine);
          expect(starts).toHaveLength(1);
          if (wasPending.includes(key) && !endedMeanwhile.includes(key)) expect(meta.running_time as number).toBeGreaterThanOrEqual(killedAt);
        }
      }
      const activity = (await c.lines('/activity/1?count=1000')).filter((a) => a.event === 'job:completed');
      expect(new Set(activity.map((a) => a.job)).size).toBe(JOBS);
      expect(activity).toHaveLength(JOBS);

      console.log(
        [
          `runner crash: ${JOBS} jobs scheduled in ${scheduled - t0} ms; ${UNITS} running ${full - scheduled} ms later; killed at +${killedAt - t0} ms`,
          `  read before the kill: ${wasFinished.length} finished, ${wasRunning.length} running, ${wasPending.length} pending; running at the kill: ${orphans.length} (${endedMeanwhile.length} ended since the runner was full)`,
          `  jobs' processes gone ${dead - killedAt} ms after the kill; API up in ${apiUp - dead} ms, runner up (its orphans finished) in ${restarted - apiUp} ms`,
          `  after restart (+${restarted - killedAt} ms): all ${JOBS} final ${done - restarted} ms later: ${orphans.length} failed (orphans), ${JOBS - orphans.length} finished`,
          `  items: ${acked} acknowledged before the kill, all readable after (${readable} readable in all); of ${unacked} items the running jobs wrote but storage had not acknowledged, ${unacked - lostUnacked} were stored anyway and ${lostUnacked} lost with the runner`,
        ].join('\n'),
      );
    } finally {
      await Promise.all([runner.stop('SIGTERM', 20_000), api.stop('SIGTERM', 20_000)]);
      for (const key of readdirSafe(writtenDir)) {
        const pid = Number(readFileSync(join(writtenDir, key), 'utf8').split('\n')[0].slice(4));
        if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
      }
    }
  });
});

function readdirSafe(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}
