// The Python environments of deployed versions, built for real (python3 -m venv, pip from
// PyPI with a cached download folder): what jobs and deploys rely on.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeployBlob } from '@crawlhub/contracts';
import { FolderBlobStore } from '../../libs/deploys/src/adapters/folder/blob-store.folder';
import { BuildError, EnvironmentSpec, PythonEnvironments } from '../../libs/deploys/src/environments/python-environments';
import { BROKEN_SPIDER, buildEgg, projectCopy, TEST_PIP_CACHE } from '../support/scrapy-project';
import { describeIf, needs } from '../support/skip';

jest.setTimeout(600_000);

describeIf(needs.venv)('Python environments', () => {
  const python3 = 'python3';
  const root = mkdtempSync(join(tmpdir(), 'crawlhub-envs-'));
  const blobs = new FolderBlobStore(join(root, 'blobs'));
  const options = { root: join(root, 'environments'), pipCacheDir: TEST_PIP_CACHE, python: python3, buildTimeoutMs: 600_000, maxIdleMs: 3_600_000, maxBytes: 10 * 1024 ** 3, baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' } };
  const envs = new PythonEnvironments(options, blobs);
  const blob = async (bytes: Buffer, filename: string): Promise<DeployBlob> => ({ ...(await blobs.put(bytes)), filename });
  let good: EnvironmentSpec;
  let broken: EnvironmentSpec;

  beforeAll(async () => {
    const one = projectCopy();
    const two = projectCopy({ 'bookshop/spiders/broken.py': BROKEN_SPIDER });
    try {
      const requirements = await blob(Buffer.from('inflection==0.5.1\n'), 'requirements.txt');
      good = { project: 1, stack: 'scrapy:2.19', egg: await blob(buildEgg(python3, one.dir), 'project-1.0-py3.11.egg'), eggs: [], requirements };
      broken = { ...good, egg: await blob(buildEgg(python3, two.dir), 'project-1.0-py3.11.egg') };
    } finally {
      one.remove();
      two.remove();
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('builds a version\'s environment with the requirements, lists its spiders, and reuses it after', async () => {
    const log: string[] = [];
    const env = await envs.ensure(good, (l) => log.push(l));
    expect(log.join('\n')).toMatch(/inflection/);
    expect(await envs.describe(env, (l) => log.push(l))).toEqual({ spiders: ['books'], settingsModule: 'bookshop.settings' });
    // Cached: no pip this time, the same folder.
    const again: string[] = [];
    expect((await envs.ensure(good, (l) => again.push(l))).dir).toBe(env.dir);
    expect(again).toEqual([]);
    // Another project with the same contents gets an environment of its own.
    expect(envs.nameOf({ ...good, project: 2 })).not.toBe(envs.nameOf(good));
    // Nothing of the build is left beside the environments.
    expect(readdirSync(options.root).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('fails a project that does not import, with the traceback in the log', async () => {
    const log: string[] = [];
    const env = await envs.ensure(broken, (l) => log.push(l));
    const error = await envs.describe(env, (l) => log.push(l)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).message).toBe("The project does not import: ModuleNotFoundError: No module named 'module_that_does_not_exist'");
    expect(log).toContain('Traceback (most recent call last):');
    expect(log.some((l) => /File ".*bookshop\/spiders\/broken.py", line 1, in <module>/.test(l))).toBe(true);
    expect((error as BuildError).logTail.slice(-1)).toEqual(["ModuleNotFoundError: No module named 'module_that_does_not_exist'"]);
  });

  it('fails a requirement that does not install, and leaves no environment behind', async () => {
    const spec = { ...good, requirements: await blob(Buffer.from('inflection==999.0.0\n'), 'requirements.txt') };
    const log: string[] = [];
    const error = await envs.ensure(spec, (l) => log.push(l)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).message).toMatch(/^Installing the stack and the requirements failed/);
    expect(log.join('\n')).toMatch(/No matching distribution found for inflection==999.0.0/);
    expect(existsSync(join(options.root, envs.nameOf(spec)))).toBe(false);
    expect(readdirSync(options.root).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('never uses what a build killed half-way left, and eviction removes it', async () => {
    const name = envs.nameOf({ ...good, project: 3 });
    // A runner SIGKILLed mid-build leaves its temporary folder: a venv, some packages, no ready mark.
    const left = join(options.root, `.build-${name}-deadbeef0000`);
    cpSync(join(options.root, envs.nameOf(good)), left, { recursive: true });
    rmSync(join(left, '.crawlhub-ready'));
    expect(await envs.cached({ ...good, project: 3 })).toBeNull();
    // A later eviction (once a build could no longer be running) removes it; ready environments stay.
    expect(await envs.evict(Date.now() + options.buildTimeoutMs + 1000)).toEqual([`.build-${name}-deadbeef0000`]);
    expect(existsSync(left)).toBe(false);
    expect(await envs.cached(good)).not.toBeNull();
  });

  it('evicts environments unused for too long, but not one a job holds', async () => {
    const env = (await envs.cached(good))!;
    const release = envs.acquire(env);
    expect(await envs.evict(Date.now() + options.maxIdleMs + 1000)).not.toContain(envs.nameOf(good));
    release();
    expect(await envs.evict(Date.now() + options.maxIdleMs + 1000)).toContain(envs.nameOf(good));
    expect(await envs.cached(good)).toBeNull();
    mkdirSync(options.root, { recursive: true });
  });
});
