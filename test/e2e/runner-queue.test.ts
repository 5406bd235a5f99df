import { JOBS_TOPIC, RUNNER_HEARTBEAT, RunnerHeartbeat } from '@crawlhub/contracts';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';
import { client, FIFO_PRELUDE, nodeScript } from '../support/runner-helpers';

jest.setTimeout(90_000);

/** A spider that writes one item naming its job, then sleeps `ms`. */
const sleeper = (ms: number) => nodeScript(`${FIFO_PRELUDE} out('ITM',{job:process.env.SHUB_JOBKEY}); setTimeout(()=>out('FIN',{outcome:'finished'}),${ms});`);

interface Span {
  key: string;
  units: number;
  from: number;
  to: number;
  runner: string;
}

describe('runner: the queue', () => {
  let p: TestPlatform;
  let c: ReturnType<typeof client>;

  beforeAll(async () => {
    p = await startTestPlatform({ RUNNER_POLL_MS: '50' });
    c = client(p, p.adminKey);
  });
  afterAll(() => p?.stop());

  const spans = async (keys: string[]): Promise<Span[]> =>
    Promise.all(
      keys.map(async (key) => {
        const m = await c.waitFor(key);
        expect(m.close_reason).toBe('finished');
        return { key, units: m.units as number, from: m.running_time as number, to: m.finished_time as number, runner: m._runner as string };
      }),
    );

  it('runs pending jobs by priority, then first scheduled first', async () => {
    await c.register(20, 'sleeper', sleeper(50));
    const priorities = [1, 3, 2, 3, 4, 0];
    const keys: string[] = [];
    for (const [i, priority] of priorities.entries()) keys.push(await c.run(20, 'sleeper', { n: String(i), priority: String(priority) }));
    const runner = await p.startRunner({ id: 'one-unit', units: 1 });
    const done = await spans(keys);
    await p.stopRunner(runner);
    const order = [...done].sort((a, b) => a.from - b.from).map((s) => keys.indexOf(s.key));
    expect(order).toEqual([4, 1, 3, 2, 0, 5]);
    // One unit: one job at a time.
    const sorted = [...done].sort((a, b) => a.from - b.from);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i].from).toBeGreaterThanOrEqual(sorted[i - 1].to);
  });

  it('never runs more units than it has, and leaves a job bigger than its capacity pending', async () => {
    await c.register(21, 'sleeper', sleeper(400));
    const units = [2, 2, 1, 1, 3, 1];
    const keys: string[] = [];
    for (const [i, u] of units.entries()) keys.push(await c.run(21, 'sleeper', { n: String(i), units: String(u) }));
    const big = await c.run(21, 'sleeper', { n: 'big', units: '4' });
    const runner = await p.startRunner({ id: 'three-units', units: 3 });
    const done = await spans(keys);
    expect((await c.meta(big)).state).toBe('pending');
    await p.stopRunner(runner);
    let most = 0;
    for (const s of done) {
      // Units in use just after this job started.
      const inUse = done.filter((o) => o.from <= s.from && o.to > s.from).reduce((a, o) => a + o.units, 0);
      expect(inUse).toBeLessThanOrEqual(3);
      most = Math.max(most, inUse);
    }
    expect(most).toBe(3);
    // The first pending job did not wait for the first one's units to free: the 1-unit job behind it filled the gap.
    const first = done.find((s) => s.key === keys[0])!;
    const third = done.find((s) => s.key === keys[2])!;
    expect(third.from).toBeLessThan(first.to);
  });

  it('shares the queue between runners without running a job twice', async () => {
    await c.register(22, 'sleeper', sleeper(250));
    const keys: string[] = [];
    for (let i = 0; i < 8; i++) keys.push(await c.run(22, 'sleeper', { n: String(i) }));
    const a = await p.startRunner({ id: 'runner-a', units: 2 });
    const b = await p.startRunner({ id: 'runner-b', units: 2 });
    const done = await spans(keys);
    await Promise.all([p.stopRunner(a), p.stopRunner(b)]);
    expect(new Set(done.map((s) => s.runner))).toEqual(new Set(['runner-a', 'runner-b']));
    for (const key of keys) {
      expect(await c.lines(`/items/${key}`)).toEqual([{ job: key }]);
      const starts = (await c.lines(`/logs/${key}`)).filter((l) => String(l.message).startsWith('[crawlhub runner] runner '));
      expect(starts).toHaveLength(1);
    }
    for (const runner of ['runner-a', 'runner-b']) {
      const mine = done.filter((s) => s.runner === runner).sort((x, y) => x.from - y.from);
      for (const s of mine) expect(mine.filter((o) => o.from <= s.from && o.to > s.from).length).toBeLessThanOrEqual(2);
    }
  });

  it('runs a project\'s jobs one at a time when its botgroup\'s max_running is 1, whatever its free units', async () => {
    const auth = { authorization: basic(p.adminKey) };
    expect((await fetch(`${p.storageUrl}/botgroups/one-at-a-time/max_running`, { method: 'POST', body: '1', headers: auth })).status).toBe(200);
    const settings = await fetch(`${p.storageUrl}/projects/24/settings`, { method: 'POST', body: JSON.stringify({ botgroups: ['one-at-a-time'] }), headers: auth });
    expect(settings.status).toBe(200);
    await c.register(24, 'sleeper', sleeper(300));
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) keys.push(await c.run(24, 'sleeper', { n: String(i) }));
    // Another project, without a botgroup, is not held back by it.
    await c.register(25, 'sleeper', sleeper(300));
    const free = [await c.run(25, 'sleeper', { n: '0' }), await c.run(25, 'sleeper', { n: '1' })];
    // Units to spare (it also takes the 4-unit job an earlier test left pending).
    const runner = await p.startRunner({ id: 'capped', units: 12 });
    const done = await spans(keys);
    const unlimited = await spans(free);
    await p.stopRunner(runner);
    const sorted = [...done].sort((a, b) => a.from - b.from);
    expect(sorted.map((s) => s.key)).toEqual(keys);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i].from).toBeGreaterThanOrEqual(sorted[i - 1].to);
    expect(unlimited[1].from).toBeLessThan(unlimited[0].to);
  });

  it('heartbeats while it runs jobs, and appends nothing while idle', async () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const log = p.core.eventLog;
    const appended = async () => (await log.endOffsets(JOBS_TOPIC)).reduce((a, b) => a + b, 0);
    const heartbeats = async () => {
      const ends = await log.endOffsets(JOBS_TOPIC);
      const events = (await Promise.all(ends.map((end, partition) => log.read(JOBS_TOPIC, partition, 0, end)))).flat();
      return events.filter((e) => e.event.type === RUNNER_HEARTBEAT && (e.event.data as RunnerHeartbeat).runner === 'beating').map((e) => e.event.data as RunnerHeartbeat);
    };
    const runner = await p.startRunner({ id: 'beating', units: 1, heartbeatMs: 50 });
    await sleep(300); // its first polls (a claim that finds nothing is not asked again)
    const idle = await appended();
    await sleep(600);
    expect(await appended()).toBe(idle);
    expect(await heartbeats()).toEqual([]);

    await c.register(26, 'sleeper', sleeper(1000));
    await c.waitFor(await c.run(26, 'sleeper'));
    const beats = await heartbeats();
    expect(beats.length).toBeGreaterThanOrEqual(5); // a job of about a second, a heartbeat every 50 ms
    expect(new Set(beats.map((b) => b.project))).toEqual(new Set([26]));
    await sleep(300);
    const after = await appended();
    await sleep(600);
    expect(await appended()).toBe(after);
    await p.stopRunner(runner);
  });

  it('finishes the jobs it runs as shutdown when it is stopped, and records the activity', async () => {
    await c.register(23, 'sleeper', sleeper(60_000));
    const key = await c.run(23, 'sleeper');
    const runner = await p.startRunner({ id: 'short-lived', units: 1, stopGraceMs: 500 });
    await c.waitFor(key, (m) => m.state === 'running');
    await c.waitFor(key, () => true);
    await new Promise((r) => setTimeout(r, 200));
    await p.stopRunner(runner);
    expect((await c.meta(key)).close_reason).toBe('shutdown');
    const events = (await c.lines('/activity/23')).filter((a) => a.job === key).map((a) => a.event);
    expect(events).toEqual(['job:completed', 'job:started', 'job:scheduled']);
  });
});
