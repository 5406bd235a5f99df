import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestPlatform, TestPlatform } from '../support/platform';
import { addVersion, deployedLine } from '../support/deploys';
import { client, FIFO_PRELUDE, nodeScript } from '../support/runner-helpers';

jest.setTimeout(120_000);

/**
 * A stand-in for the interpreter that builds environments (DEPLOY_PYTHON), so that a
 * build takes as long as the test wants: `-m venv` waits while the HOLD file exists, then
 * makes a "venv" whose python is this script; `-m pip` succeeds; `-c` answers the
 * site-packages folder, or the spider list as the describe script prints it; `-m
 * sh_scrapy.crawl` (a job) writes one item to its FIFO. Everything else of the build
 * (folders, renames, the cache, the runner) is the real code.
 */
function fakePython(hold: string): string {
  return `#!/bin/sh
case "$1 $2" in
  "-m venv")
    while [ -e '${hold}' ]; do sleep 0.05; done
    mkdir -p "$3/bin" "$3/lib/site-packages" && cp "$0" "$3/bin/python" && chmod +x "$3/bin/python"
    echo "fake venv $3" ;;
  "-m pip") echo "Collecting Scrapy (fake)"; echo "Successfully installed Scrapy (fake)" ;;
  "-m sh_scrapy.crawl") printf 'ITM {"built": true}\\n' > "$SHUB_FIFO_PATH" ;;
  *sysconfig*) echo "$(cd "$(dirname "$0")/.." && pwd)/lib/site-packages" ;;
  *) echo "CRAWLHUB_SETTINGS_MODULE=bookshop.settings"; echo '{"project_type": "scrapy", "spiders": ["books"]}' ;;
esac
`;
}

/**
 * A job of a deployed version whose environment this runner does not have (evicted, or
 * built by another runner) waits for its build without holding up the runner: other jobs
 * are claimed and run meanwhile, a stop request ends a waiting job at once, and the job
 * itself runs once the build is done, its log saying why it waited.
 */
describe('runner: a job whose environment must be built first', () => {
  let p: TestPlatform;
  const dir = mkdtempSync(join(tmpdir(), 'crawlhub-env-build-'));
  const hold = join(dir, 'HOLD');
  const envDir = join(dir, 'environments');

  beforeAll(async () => {
    const python = join(dir, 'python3');
    writeFileSync(python, fakePython(hold));
    chmodSync(python, 0o755);
    p = await startTestPlatform({ RUNNER_POLL_MS: '100', DEPLOY_PYTHON: python, DEPLOY_ENV_DIR: envDir }, { runner: { id: 'runner-env-build', units: 3 } });
  });
  afterAll(async () => {
    if (existsSync(hold)) unlinkSync(hold);
    await p?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs other jobs and honours stop requests while it builds, then runs the job', async () => {
    const c = client(p, p.adminKey);
    const deploy = await addVersion(p.dashUrl, p.adminKey, { project: 1, version: 'v1', egg: Buffer.from('an egg the fake interpreter never opens') });
    expect(deploy.lines.at(-1)).toBe(deployedLine(1, 'v1', 1));
    // The runner built the environment at deploy time; it is gone now (evicted, say).
    for (const name of readdirSync(envDir).filter((n) => n.startsWith('1-'))) rmSync(join(envDir, name), { recursive: true, force: true });

    writeFileSync(hold, '');
    const waiting = await c.run(1, 'books');
    const logs = async (key: string) => (await c.lines(`/logs/${key}`)).map((l) => String(l.message));
    for (const until = Date.now() + 30_000; !(await logs(waiting)).some((m) => m.includes('is not on this runner')); ) {
      if (Date.now() > until) throw new Error(`no build notice in the job's log: ${(await logs(waiting)).join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await logs(waiting)).toContain('[crawlhub runner] the environment of version v1 (deploy 1) is not on this runner: building it, the job starts once it is built');
    expect((await c.meta(waiting)).state).toBe('running');

    // Meanwhile the runner claims and runs another job (a registered command of the same project)...
    await c.register(1, 'quick', nodeScript(`${FIFO_PRELUDE}out('ITM',{quick:true});`));
    const quick = await c.run(1, 'quick');
    expect(await c.waitFor(quick)).toMatchObject({ state: 'finished', close_reason: 'finished' });
    expect(await c.lines(`/items/${quick}`)).toEqual([{ quick: true }]);
    // ...and a second job of the version, waiting for the same build, stops at once when asked.
    const stopped = await c.run(1, 'books', { marker: 'stopped' });
    await c.waitFor(stopped, (m) => m.state === 'running');
    expect((await c.dash('/jobs/stop.json', { project: '1', job: stopped })).status).toBe(200);
    expect(await c.waitFor(stopped)).toMatchObject({ state: 'finished', close_reason: 'cancelled' });
    expect(await logs(stopped)).toContain("[crawlhub runner] stop requested before the job's process started: it ends without running");
    expect((await c.meta(waiting)).state).toBe('running');

    // The build ends: the job runs in the environment built for it.
    unlinkSync(hold);
    expect(await c.waitFor(waiting)).toMatchObject({ state: 'finished', close_reason: 'finished', version: 'v1', deploy_id: 1 });
    expect(await c.lines(`/items/${waiting}`)).toEqual([{ built: true }]);
    expect((await logs(waiting)).some((m) => m.includes(`${envDir}/1-`) && m.includes('/bin/python" "-m" "sh_scrapy.crawl"'))).toBe(true);
  });
});
