import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestPlatform, TestPlatform } from '../support/platform';
import { client } from '../support/runner-helpers';
import { BROKEN_SPIDER, projectCopy, startBookshop, TEST_PIP_CACHE } from '../support/scrapy-project';
import { describeIf, needs } from '../support/skip';

jest.setTimeout(1_200_000);

/**
 * The real shub 2.18.1 from PyPI (test/compat/shub-env.sh prints SHUB) against crawlhub,
 * as a Scrapy Cloud user moves a project: `shub deploy` of a small Scrapy project whose
 * requirements.txt pulls `inflection` from PyPI (its spider imports it), `shub schedule`,
 * the job runs in the version's environment, `shub items` and `shub log` read it back
 * (SHUB_STORAGE); a deploy whose project does not import fails with shub printing the
 * traceback; two versions, each job running its own.
 */
const SHUB = process.env.SHUB ?? '';

describeIf(needs.shub)('shub 2.18.1: deploy, schedule, items, log', () => {
  let p: TestPlatform;
  let site: Awaited<ReturnType<typeof startBookshop>>;
  let c: ReturnType<typeof client>;
  let key: string;
  const home = mkdtempSync(join(tmpdir(), 'crawlhub-shub-home-'));
  const projects: { remove(): void }[] = [];

  /** Runs shub in a copy of the fixture project (with `files` written over it) configured for this platform. */
  const shub = (args: string[], files: Record<string, string> = {}, dir?: string) => {
    const project = dir ? { dir } : projectCopy(files);
    if (!dir) projects.push(project as { dir: string; remove(): void });
    writeFileSync(
      join(project.dir, 'scrapinghub.yml'),
      `projects:\n  default: 1\nendpoints:\n  default: ${p.dashUrl}/\napikeys:\n  default: ${key}\nrequirements:\n  file: requirements.txt\nstacks:\n  default: scrapy:2.19\n`,
    );
    return new Promise<{ code: number; out: string; dir: string }>((resolve) => {
      execFile(SHUB, args, { cwd: project.dir, env: { PATH: process.env.PATH, HOME: home, SHUB_STORAGE: p.storageUrl, LANG: 'C.UTF-8' }, timeout: 900_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}`, dir: project.dir }),
      );
    });
  };

  beforeAll(async () => {
    site = await startBookshop();
    p = await startTestPlatform({ RUNNER_POLL_MS: '100', DEPLOY_PIP_CACHE_DIR: TEST_PIP_CACHE }, { runner: { id: 'runner-shub', units: 2 } });
    c = client(p, p.adminKey);
    key = await p.createKey([1], ['deploy']);
  }, 120_000);
  afterAll(async () => {
    site?.release();
    await p?.stop();
    await site?.close();
    for (const project of projects) project.remove();
    rmSync(home, { recursive: true, force: true });
  });

  it('refuses a deploy by a key without the deploy capability, and an unknown stack with the known ones', async () => {
    const plain = await p.createKey([1]);
    const form = new FormData();
    form.append('project', '1');
    form.append('version', 'x');
    form.append('egg', new Blob([Buffer.from('not an egg')]), 'project-1.0.egg');
    const auth = { authorization: `Basic ${Buffer.from(`${plain}:`).toString('base64')}` };
    const refused = await fetch(`${p.dashUrl}/scrapyd/addversion.json`, { method: 'POST', body: form, headers: auth });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ status: 'error', message: 'This key cannot deploy: it needs the deploy capability (crawlhub keys grant <key-id> deploy)' });
    form.append('stack', 'scrapy:1.8-py3');
    const stack = await fetch(`${p.dashUrl}/scrapyd/addversion.json`, { method: 'POST', body: form, headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` } });
    expect(stack.status).toBe(400);
    expect(((await stack.json()) as { message: string }).message).toBe('Unknown stack "scrapy:1.8-py3": the known stacks are scrapy:2.11, scrapy:2.13, scrapy:2.19 (default scrapy:2.19)');
  });

  it('deploys with shub, schedules with shub, and reads the items and the log back with shub', async () => {
    const started = Date.now();
    const deploy = await shub(['deploy', '-V', 'one']);
    const deployed = Date.now();
    expect(deploy.out).toContain('{"status": "ok", "project": 1, "version": "one", "spiders": 1}');
    expect(deploy.code).toBe(0);
    expect((await c.dash('/scrapyd/listversions.json?project=1')).body).toEqual({ status: 'ok', versions: ['one'] });
    // Deployed spiders are listed (with a spider id) before they ever ran.
    expect((await c.dash('/spiders/list.json?project=1')).body).toEqual({ status: 'ok', spiders: [{ id: 'books', type: 'manual', version: 'one', tags: [] }] });

    const schedule = await shub(['schedule', 'books', '-a', `start_url=${site.url}/`]);
    expect(schedule.code).toBe(0);
    const jobKey = /job ID: (\d+\/\d+\/\d+)/.exec(schedule.out)?.[1];
    expect(jobKey).toBeDefined();
    for (const until = Date.now() + 300_000; (await c.lines(`/items/${jobKey}`)).length === 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
    const firstItem = Date.now();
    const meta = await c.waitFor(jobKey!, undefined, 300_000);
    if (meta.close_reason !== 'finished') console.log((await c.lines(`/logs/${jobKey}`)).map((l) => l.message).join('\n'));
    expect(meta).toMatchObject({ state: 'finished', close_reason: 'finished', version: 'one', deploy_id: 1 });
    console.log(`deploy "one" (environment built at deploy): shub deploy ${deployed - started} ms, deploy to first item ${firstItem - started} ms`);

    const items = await shub(['items', jobKey!.split('/').slice(1).join('/')]);
    expect(items.code).toBe(0);
    const read = items.out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(read.map((i) => i.title).sort()).toEqual(['One Hundred Years Of Solitude', 'The Little Prince', 'War And Peace']);
    expect(read.every((i) => i.release === 'one')).toBe(true);
    const log = await shub(['log', jobKey!.split('/').slice(1).join('/')]);
    expect(log.code).toBe(0);
    expect(log.out).toMatch(/INFO \[scrapy.core.engine\] Spider opened/);
    expect(log.out).toMatch(/INFO \[scrapy.core.engine\] Closing spider \(finished\)/);

    // Deployed spiders get spider ids; a spider the current version does not have is refused at once.
    expect((await c.dash('/run.json', { project: '1', spider: 'no-such-spider' })).body).toEqual({ status: 'error', message: 'Spider no-such-spider not found' });
  });

  it('fails a deploy whose project does not import, shub printing the remote traceback', async () => {
    const deploy = await shub(['deploy', '-V', 'broken'], { 'bookshop/spiders/broken.py': BROKEN_SPIDER });
    expect(deploy.code).not.toBe(0);
    expect(deploy.out).toContain('Traceback (most recent call last):');
    expect(deploy.out).toMatch(/bookshop\/spiders\/broken\.py", line 1, in <module>/);
    expect(deploy.out).toContain("ModuleNotFoundError: No module named 'module_that_does_not_exist'");
    expect(deploy.out).toContain(`Error: Deploy failed: b'{"status": "error", "message": "The project does not import: ModuleNotFoundError: No module named \\'module_that_does_not_exist\\'"}'`);
    // The failed deploy is no version: the current one is still "one".
    expect((await c.dash('/scrapyd/listversions.json?project=1')).body).toEqual({ status: 'ok', versions: ['one'] });
  });

  it('runs each job in the version it was scheduled with, when a newer one is deployed meanwhile', async () => {
    // Two units: a held job of version one takes both, a second job of version one waits.
    const held = await c.run(1, 'books', { start_url: `${site.url}/hold`, units: '2' });
    await c.waitFor(held, (m) => m.state === 'running', 300_000);
    const waiting = await c.run(1, 'books', { start_url: `${site.url}/`, marker: 'waiting' });
    const started = Date.now();
    const deploy = await shub(['deploy', '-V', 'two'], { 'bookshop/spiders/__init__.py': "RELEASE = 'two'\n" });
    expect(deploy.out).toContain('{"status": "ok", "project": 1, "version": "two", "spiders": 1}');
    console.log(`deploy "two" (new code, same requirements: the environment is reused): shub deploy ${Date.now() - started} ms`);
    const newer = await c.run(1, 'books', { start_url: `${site.url}/`, marker: 'newer' });
    site.release();
    const metas = await Promise.all([held, waiting, newer].map((k) => c.waitFor(k, undefined, 300_000)));
    expect(metas.map((m) => [m.close_reason, m.version, m.deploy_id])).toEqual([
      ['finished', 'one', 1],
      ['finished', 'one', 1],
      ['finished', 'two', 3],
    ]);
    for (const [k, release] of [[held, 'one'], [waiting, 'one'], [newer, 'two']]) {
      expect((await c.lines(`/items/${k}`)).map((i) => i.release)).toEqual([release, release, release]);
    }
    expect((await c.dash('/scrapyd/listversions.json?project=1')).body).toEqual({ status: 'ok', versions: ['one', 'two'] });
  });

  it('deploys code whose environment is cached (warm) and runs it', async () => {
    const started = Date.now();
    const deploy = await shub(['deploy', '-V', 'one-again']);
    expect(deploy.out).toContain('{"status": "ok", "project": 1, "version": "one-again", "spiders": 1}');
    const jobKey = await c.run(1, 'books', { start_url: `${site.url}/`, marker: 'warm' });
    for (const until = Date.now() + 120_000; (await c.lines(`/items/${jobKey}`)).length === 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
    console.log(`deploy "one-again" (environment cached): deploy to first item ${Date.now() - started} ms`);
    expect((await c.waitFor(jobKey, undefined, 120_000)).version).toBe('one-again');
  });
});
