import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestPlatform, TestPlatform } from '../support/platform';
import { client, FIFO_PRELUDE, nodeScript } from '../support/runner-helpers';

jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A spider that appends `<start ms> <end ms>` of its run to RUNS_DIR/<job>, writing one
 * item, after sleeping its `ms` argument: what a user notices of a job (a crawl that ran
 * twice, two crawls at once on one unit) whatever the views said.
 */
const SPAN = nodeScript(
  `${FIFO_PRELUDE} const t0=Date.now(); const file=process.env.RUNS_DIR+'/'+process.env.SHUB_JOBKEY.replace(/\\//g,'-');
   const ms=Number(JSON.parse(process.env.SHUB_JOB_DATA).spider_args.ms);
   out('ITM',{n:1}); setTimeout(()=>{fs.appendFileSync(file,t0+' '+Date.now()+'\\n'); out('FIN',{outcome:'finished'});},ms);`,
);

/**
 * The runner when the views lag behind the log for longer than READ_YOUR_WRITES_TIMEOUT_MS
 * (a loaded machine, a slow MongoDB): its writes are in the log, their answers are not
 * readable yet. It must neither run a job it ended again, nor run more jobs than its units
 * because a claim's answer was lost.
 */
describe('runner: views that lag behind the log', () => {
  let p: TestPlatform;
  let c: ReturnType<typeof client>;
  const runsDir = mkdtempSync(join(tmpdir(), 'crawlhub-view-lag-'));
  const runs = (key: string) =>
    existsSync(join(runsDir, key.replace(/\//g, '-')))
      ? readFileSync(join(runsDir, key.replace(/\//g, '-')), 'utf8').split('\n').filter(Boolean).map((l) => l.split(' ').map(Number) as [number, number])
      : [];

  beforeAll(async () => {
    p = await startTestPlatform({ READ_YOUR_WRITES_TIMEOUT_MS: '2000', RUNNER_POLL_MS: '50' });
    c = client(p, p.adminKey);
  });
  afterAll(() => p?.stop());

  it('never runs again a job it ended while the views still show it running', async () => {
    await c.register(60, 'span', SPAN, { env: { RUNS_DIR: runsDir } });
    const key = await c.run(60, 'span', { ms: '500' });
    const runner = await p.startRunner({ id: 'lag-ended', units: 1 });
    try {
      await c.waitFor(key, (m) => m.state === 'running');
      // The job ends, and the runner's periodic check of its running jobs (every 15 s) comes, while the views stand still.
      await p.projector!.stop();
      await sleep(17_000);
      await p.projector!.start();
      expect(await c.waitFor(key)).toMatchObject({ close_reason: 'finished' });
      await sleep(500);
    } finally {
      await p.stopRunner(runner);
    }
    expect(runs(key)).toHaveLength(1);
  });

  it('claims nothing more while a claim\'s answer is lost, so it never runs more jobs than its units', async () => {
    await c.register(61, 'span', SPAN, { env: { RUNS_DIR: runsDir } });
    const first = await c.run(61, 'span', { ms: '2000' });
    const second = await c.run(61, 'span', { ms: '16000' });
    // The first claim is in the log, its answer lost; the runner's next polls see views without it.
    await p.projector!.stop();
    const runner = await p.startRunner({ id: 'lag-claim', units: 1 });
    try {
      // Past READ_YOUR_WRITES_TIMEOUT_MS (2 s), and a few polls after it.
      await sleep(5_000);
      await p.projector!.start();
      for (const key of [first, second]) expect(await c.waitFor(key, undefined, 60_000)).toMatchObject({ close_reason: 'finished', _runner: 'lag-claim' });
    } finally {
      await p.stopRunner(runner);
    }
    const [a, b] = [runs(first), runs(second)];
    expect([a.length, b.length]).toEqual([1, 1]);
    // One unit: one crawl at a time, the first claimed first.
    expect(b[0][0]).toBeGreaterThanOrEqual(a[0][1]);
  });
});
