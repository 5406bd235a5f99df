import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { addVersion, deployedLine } from '../support/deploys';
import { client } from '../support/runner-helpers';
import { BROKEN_SPIDER, buildEgg, projectCopy, startBookshop, TEST_PIP_CACHE } from '../support/scrapy-project';
import { describeIf, needs } from '../support/skip';
import { freePort, isolatedPlatformEnv, MAIN, SpawnedPlatform, spawnPlatform } from '../support/spawn-platform';

jest.setTimeout(900_000);

const KEY = 'deploys-e2e-admin-key-000001';
/** The processes (pids) whose command line names `path`: what a killed runner's builds left running. */
function processesUnder(path: string): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(path)) pids.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * Deploys on whatever the lane runs (the embedded default; EVENT_LOG=kafka; VIEW_STORE=mongodb,
 * where the eggs go to GridFS), with the API and the runners in their own processes, as a
 * distributed deployment runs them: `scrapyd/addversion.json` of the fixture project's egg
 * and its requirements.txt (a real PyPI package its spider imports), the runner building
 * the environment SIGKILLed half-way through pip, another runner (the same machine,
 * restarted) building it again from the redelivered request, the deploy answering ok, and a
 * job of the version running in the complete environment, never in what the killed build left.
 */
describeIf(needs.venv)('deploys: a runner SIGKILLed while it builds an environment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crawlhub-deploys-'));
  const dataDir = join(dir, 'data');
  const envDir = join(dir, 'environments');
  const unique = `dp${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const processes: SpawnedPlatform[] = [];
  let site: Awaited<ReturnType<typeof startBookshop>>;
  let env: Record<string, string>;
  let c: ReturnType<typeof client>;
  let dashUrl: string;
  let good: Buffer;
  let broken: Buffer;

  const start = async (roles: string, name: string) => {
    const p = await spawnPlatform({ env, roles, name, startTimeoutMs: 60_000 });
    processes.push(p);
    return p;
  };

  beforeAll(async () => {
    expect(existsSync(MAIN)).toBe(true); // `npm run build` first (npm test does it)
    mkdirSync(dataDir);
    const one = projectCopy();
    const two = projectCopy({ 'bookshop/spiders/broken.py': BROKEN_SPIDER });
    try {
      good = buildEgg('python3', one.dir);
      broken = buildEgg('python3', two.dir);
    } finally {
      one.remove();
      two.remove();
    }
    site = await startBookshop();
    const ports = { storage: await freePort(), dash: await freePort() };
    dashUrl = `http://127.0.0.1:${ports.dash}/api`;
    env = {
      ...isolatedPlatformEnv({ unique, dataDir, ports, adminKey: KEY }),
      RUNNER_POLL_MS: '100',
      DEPLOY_ENV_DIR: envDir,
      DEPLOY_PIP_CACHE_DIR: TEST_PIP_CACHE,
      LOG_LEVEL: 'warn',
    };
    c = client({ dashUrl, storageUrl: `http://127.0.0.1:${ports.storage}` }, KEY);
  }, 120_000);

  afterAll(async () => {
    for (const p of processes) await p.stop('SIGTERM', 10_000).catch(() => undefined);
    // What the killed runner's pip left running (its own process group, as any build).
    for (const pid of processesUnder(envDir)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await site?.close();
    if (process.env.VIEW_STORE === 'mongodb' && process.env.MONGODB_URI) {
      const mongo = await MongoClient.connect(process.env.MONGODB_URI);
      await mongo.db(`crawlhub_${unique}`).dropDatabase().catch(() => undefined);
      await mongo.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds the deploy again on another runner, and the job runs in the complete environment', async () => {
    await start('storage,dash,projector', 'api');
    const killed = await start('runner', 'runner-1');
    let killedAt = 0;
    let builders = 0;
    let restarted: Promise<SpawnedPlatform> | null = null;
    const deploy = await addVersion(dashUrl, KEY, { project: 1, version: 'v1', egg: good, requirements: 'inflection==0.5.1\n' }, (line) => {
      if (line.includes(' builds version v1 of project 1')) builders++;
      // pip is installing into the build folder: kill the runner (SIGKILL, as a crash or the OOM killer would).
      if (!killedAt && /^(Collecting|Requirement already satisfied|Downloading|Using cached|Processing)/.test(line.trim())) {
        killedAt = Date.now();
        killed.kill('SIGKILL');
        // The machine's runner comes back (another process, the same disk).
        restarted = killed.waitExit().then(() => start('runner', 'runner-2'));
      }
    });
    expect(killedAt).toBeGreaterThan(0);
    await restarted;
    expect(deploy.status).toBe(200);
    expect(deploy.lines.at(-1)).toBe(deployedLine(1, 'v1', 1));
    // Two runners built it: the killed one, then the one that took the redelivered request.
    expect(builders).toBe(2);

    // One complete environment; whatever the killed build left is a `.build-` folder that is not ready.
    const entries = readdirSync(envDir);
    const ready = entries.filter((n) => n.startsWith('1-'));
    expect(ready).toHaveLength(1);
    expect(existsSync(join(envDir, ready[0], '.crawlhub-ready'))).toBe(true);
    for (const left of entries.filter((n) => n.startsWith(`.build-${ready[0]}`))) expect(existsSync(join(envDir, left, '.crawlhub-ready'))).toBe(false);

    const job = await c.run(1, 'books', { start_url: `${site.url}/` });
    const meta = await c.waitFor(job, undefined, 300_000);
    const logs = (await c.lines(`/logs/${job}`)).map((l) => String(l.message));
    if (meta.close_reason !== 'finished') console.log(logs.join('\n'));
    expect(meta).toMatchObject({ state: 'finished', close_reason: 'finished', version: 'v1', deploy_id: 1 });
    expect((await c.lines(`/items/${job}`)).map((i) => i.title).sort()).toEqual(['One Hundred Years Of Solitude', 'The Little Prince', 'War And Peace']);
    const started = logs.find((m) => m.includes(' starts job '))!;
    expect(started).toContain(`"${join(envDir, ready[0])}/bin/python" "-m" "sh_scrapy.crawl"`);

    if (process.env.VIEW_STORE === 'mongodb') {
      // The distributed blob store: the egg and the requirements are in GridFS, not in a folder.
      expect(existsSync(join(dataDir, 'blobs'))).toBe(false);
      const mongo = await MongoClient.connect(process.env.MONGODB_URI!);
      try {
        const files = await mongo.db(`crawlhub_${unique}`).collection('blobs.files').countDocuments();
        expect(files).toBe(2);
      } finally {
        await mongo.close();
      }
    } else {
      expect(readdirSync(join(dataDir, 'blobs')).length).toBeGreaterThan(0);
    }
  });

  it('fails a deploy whose project does not import, with the traceback, and keeps the current version', async () => {
    const deploy = await addVersion(dashUrl, KEY, { project: 1, version: 'broken', egg: broken, requirements: 'inflection==0.5.1\n' });
    expect(deploy.lines).toContain('Traceback (most recent call last):');
    expect(deploy.lines).toContain("ModuleNotFoundError: No module named 'module_that_does_not_exist'");
    expect(deploy.lines.at(-1)).toBe(`{"status": "error", "message": "The project does not import: ModuleNotFoundError: No module named 'module_that_does_not_exist'"}`);
    expect((await c.dash('/scrapyd/listversions.json?project=1')).body).toEqual({ status: 'ok', versions: ['v1'] });
  });
});
