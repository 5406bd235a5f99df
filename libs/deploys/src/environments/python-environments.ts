/* eslint-disable no-restricted-properties, no-restricted-syntax -- this machine's cache of environments ages its folders by their file times, which the OS stamps: wall time, never in an event, a view or an answer. */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DeployBlob } from '@crawlhub/contracts';
import { ENTRYPOINT_REQUIREMENT, STACKS } from '../domain/stacks';
import { BlobStore } from '../ports/blob-store';
import { DESCRIBE_PROJECT_PY } from './describe-project.py';
import { runLines } from './process-lines';

/** What an environment is made of: one per (project, these contents). */
export interface EnvironmentSpec {
  project: number;
  stack: string;
  egg: DeployBlob;
  eggs: DeployBlob[];
  requirements: DeployBlob | null;
}

export interface Environment {
  dir: string;
  /** The environment's interpreter: jobs run `<python> -m sh_scrapy.crawl` (no script shebangs: see build). */
  python: string;
  /** The project egg, beside the environments: jobs get it on PYTHONPATH. */
  egg: string;
}

export interface EnvironmentsOptions {
  root: string;
  pipCacheDir: string;
  /** The interpreter that creates environments. */
  python: string;
  buildTimeoutMs: number;
  maxIdleMs: number;
  maxBytes: number;
  /** PATH and the like for pip (the runner's passed-through environment). */
  baseEnv: Record<string, string>;
}

export class BuildError extends Error {
  constructor(message: string, readonly logTail: string[] = []) {
    super(message);
  }
}

const READY = '.crawlhub-ready';
const LAST_USED = '.crawlhub-last-used';
const TEMP_PREFIX = '.build-';
/** The folder of the project eggs, beside the environments. */
const EGGS = 'project-eggs';

/**
 * The Python virtual environments of deployed versions on this machine, one folder per
 * (project, contents): the stack's Scrapy, scrapinghub-entrypoint-scrapy, the
 * requirements (pip, with the machine's pip cache), then the extra eggs and the project
 * egg on the path. Every job of the version uses the same folder; another project never
 * shares it, even with the same contents.
 *
 * A build happens in a temporary folder beside the others and is renamed into place when
 * complete (a rename is atomic), so a build that dies (SIGKILL, a full disk) leaves only
 * a temporary folder that no job uses and that a later eviction removes. Two builds of
 * one environment at once (two runners on one disk) both complete; the first rename
 * wins and the other's folder is dropped. Environments are never moved after their
 * build, but nothing in them depends on their path: jobs call the interpreter, not the
 * scripts (whose shebangs name the temporary folder), and the eggs are listed relative
 * to site-packages.
 */
export class PythonEnvironments {
  private readonly building = new Map<string, Promise<void>>();
  private readonly leases = new Map<string, number>();

  constructor(private readonly o: EnvironmentsOptions, private readonly blobs: BlobStore) {}

  /**
   * The folder name of a spec: the project and a digest of what is installed (the stack,
   * the requirements, the extra eggs). The project egg is not part of it: it goes on the
   * path of each job, so a new version whose requirements did not change reuses the
   * environment of the previous one (a deploy of code only builds nothing).
   */
  nameOf(spec: EnvironmentSpec): string {
    const parts = [STACKS[spec.stack] ?? spec.stack, ENTRYPOINT_REQUIREMENT, spec.requirements?.sha256 ?? '-', ...spec.eggs.map((e) => e.sha256)];
    return `${spec.project}-${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 24)}`;
  }

  private envOf(dir: string, spec: EnvironmentSpec): Environment {
    return { dir, python: join(dir, 'bin', 'python'), egg: this.eggPathOf(spec) };
  }

  private eggPathOf(spec: EnvironmentSpec): string {
    return join(this.o.root, EGGS, `${spec.project}-${spec.egg.sha256}.egg`);
  }

  /** The environment if this machine has it already (and marks it used), else null. */
  async cached(spec: EnvironmentSpec): Promise<Environment | null> {
    const dir = join(this.o.root, this.nameOf(spec));
    if (!(await exists(join(dir, READY)))) return null;
    if (!(await exists(this.eggPathOf(spec)))) await this.writeEgg(spec);
    await touch(join(dir, LAST_USED));
    await touch(this.eggPathOf(spec));
    return this.envOf(dir, spec);
  }

  /** The project egg beside the environments, whole or not at all (a temporary file renamed). */
  private async writeEgg(spec: EnvironmentSpec): Promise<void> {
    await mkdir(join(this.o.root, EGGS), { recursive: true });
    const temp = join(this.o.root, EGGS, `${TEMP_PREFIX}${randomBytes(6).toString('hex')}`);
    await writeFile(temp, await this.blob(spec.egg));
    await rename(temp, this.eggPathOf(spec));
  }

  /**
   * The environment of a spec, built first when this machine does not have it; each
   * line of the build (pip's output) goes to `log`. Fails with BuildError (a requirement
   * that does not install, an unknown stack, a blob missing from the store).
   */
  async ensure(spec: EnvironmentSpec, log: (line: string) => void): Promise<Environment> {
    const cached = await this.cached(spec);
    if (cached) return cached;
    const name = this.nameOf(spec);
    let build = this.building.get(name);
    if (!build) {
      build = this.build(spec, name, log).then(() => undefined).finally(() => this.building.delete(name));
      this.building.set(name, build);
    } else {
      log(`[crawlhub] waiting for the build of environment ${name} already under way`);
    }
    await build;
    void this.evict().catch(() => undefined);
    return (await this.cached(spec)) ?? (await this.ensure(spec, log));
  }

  /** Marks an environment in use (a job runs in it) until the returned release is called: eviction leaves it alone. */
  acquire(env: Environment): () => void {
    this.leases.set(env.dir, (this.leases.get(env.dir) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.leases.get(env.dir) ?? 1) - 1;
      if (n <= 0) this.leases.delete(env.dir);
      else this.leases.set(env.dir, n);
    };
  }

  /**
   * Lists the spiders of the environment's project (`shub-image-info` in the
   * environment); fails with BuildError when the project does not import (the
   * traceback in the log), has no settings entry point, or has no spider.
   */
  async describe(env: Environment, log: (line: string) => void): Promise<{ spiders: string[]; settingsModule: string }> {
    const cwd = join(this.o.root, `${TEMP_PREFIX}describe-${randomBytes(6).toString('hex')}`);
    await mkdir(cwd, { recursive: true });
    const tail: string[] = [];
    try {
      const result = await runLines([env.python, '-c', DESCRIBE_PROJECT_PY, env.egg], {
        cwd,
        env: this.childEnv(),
        timeoutMs: this.o.buildTimeoutMs,
        line: (text, stream) => {
          if (stream === 'stderr' || !(text.startsWith('{') || text.startsWith('CRAWLHUB_SETTINGS_MODULE='))) {
            log(text);
            tail.push(text);
            if (tail.length > 60) tail.shift();
          }
        },
      });
      if (result.timedOut) throw new BuildError(`Listing the spiders took longer than ${this.o.buildTimeoutMs} ms`, tail);
      const settingsModule = result.stdout.find((l) => l.startsWith('CRAWLHUB_SETTINGS_MODULE='))?.slice('CRAWLHUB_SETTINGS_MODULE='.length) ?? '';
      if (result.code !== 0) {
        const last = tail.filter((l) => l.trim() !== '').pop() ?? `exit code ${result.code}`;
        throw new BuildError(result.code === 2 ? last : `The project does not import: ${last.trim()}`, tail);
      }
      const info = [...result.stdout].reverse().map(parseInfo).find((x) => x !== null);
      if (!info) throw new BuildError('shub-image-info printed no spider list', tail);
      if (info.length === 0) throw new BuildError(`No spiders found in the project (settings module ${settingsModule}: check SPIDER_MODULES)`, tail);
      return { spiders: info, settingsModule };
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  }

  private childEnv(): Record<string, string> {
    return { ...this.o.baseEnv, PIP_CACHE_DIR: this.o.pipCacheDir, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1', PYTHONNOUSERSITE: '1', PYTHONDONTWRITEBYTECODE: '1' };
  }

  private async build(spec: EnvironmentSpec, name: string, log: (line: string) => void): Promise<void> {
    const requirement = STACKS[spec.stack];
    if (!requirement) throw new BuildError(`Unknown stack ${JSON.stringify(spec.stack)}`);
    await mkdir(this.o.root, { recursive: true });
    await mkdir(this.o.pipCacheDir, { recursive: true });
    const temp = join(this.o.root, `${TEMP_PREFIX}${name}-${randomBytes(6).toString('hex')}`);
    const tail: string[] = [];
    const say = (line: string) => {
      log(line);
      tail.push(line);
      if (tail.length > 60) tail.shift();
    };
    const run = async (what: string, argv: string[]) => {
      const result = await runLines(argv, { cwd: this.o.root, env: this.childEnv(), timeoutMs: this.o.buildTimeoutMs, line: say });
      if (result.timedOut) throw new BuildError(`${what} took longer than ${this.o.buildTimeoutMs} ms`, tail);
      if (result.code !== 0) throw new BuildError(`${what} failed (exit code ${result.code ?? result.signal})`, tail);
    };
    try {
      say(`[crawlhub] building environment ${name}: stack ${spec.stack} (${requirement})`);
      await run('Creating the virtual environment', [this.o.python, '-m', 'venv', temp]);
      const python = join(temp, 'bin', 'python');
      const eggsDir = join(temp, 'eggs');
      await mkdir(eggsDir);
      const args = [python, '-m', 'pip', 'install', '--no-input', '--disable-pip-version-check', requirement, ENTRYPOINT_REQUIREMENT];
      if (spec.requirements) {
        await writeFile(join(temp, 'requirements.txt'), await this.blob(spec.requirements));
        args.push('-r', join(temp, 'requirements.txt'));
      }
      await run(spec.requirements ? 'Installing the stack and the requirements' : 'Installing the stack', args);
      // Extra eggs go on the path as scrapyd and the original put them (zip imports); the project egg comes with each job.
      const eggNames = spec.eggs.map((e, i) => `dependency-${i}.egg`);
      for (const [i, e] of spec.eggs.entries()) await writeFile(join(eggsDir, eggNames[i]), await this.blob(e));
      const sitePackages = (await runCapture(python, ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], this.childEnv())).trim();
      const relative = sitePackages.slice(temp.length + 1).split('/').map(() => '..').join('/');
      await writeFile(join(sitePackages, 'crawlhub-eggs.pth'), eggNames.map((n) => `${relative}/eggs/${n}`).join('\n') + '\n');
      await writeFile(join(temp, LAST_USED), '');
      await writeFile(join(temp, READY), JSON.stringify({ project: spec.project, stack: spec.stack, builtAt: new Date().toISOString(), bytes: await folderBytes(temp) }));
      const dir = join(this.o.root, name);
      try {
        await rename(temp, dir);
      } catch (e) {
        if (!['ENOTEMPTY', 'EEXIST'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
        if (await exists(join(dir, READY))) {
          // Another build of the same environment was renamed first: use it.
          await rm(temp, { recursive: true, force: true });
        } else {
          // What an eviction that died half-way left (it unreadies first): replace it.
          await rm(dir, { recursive: true, force: true });
          await rename(temp, dir);
        }
      }
      say(`[crawlhub] environment ${name} built`);
    } catch (e) {
      await rm(temp, { recursive: true, force: true }).catch(() => undefined);
      if (e instanceof BuildError) throw e;
      throw new BuildError(`Building the environment failed: ${(e as Error).message}`, tail);
    }
  }

  private async blob(ref: DeployBlob): Promise<Buffer> {
    const bytes = await this.blobs.get(ref.sha256);
    if (!bytes) throw new BuildError(`The blob ${ref.sha256} (${ref.filename}) is missing from the blob store`);
    return bytes;
  }

  /**
   * Removes what no job will use: temporary folders of builds that died (older than a
   * build may take), environments unused for `maxIdleMs`, then the least recently used
   * ones while their total exceeds `maxBytes`. Environments leased by a running job stay.
   */
  async evict(now = Date.now()): Promise<string[]> {
    const removed: string[] = [];
    let names: string[];
    try {
      names = await readdir(this.o.root);
    } catch {
      return removed;
    }
    const envs: { dir: string; lastUsed: number; bytes: number }[] = [];
    for (const egg of names.includes(EGGS) ? await readdir(join(this.o.root, EGGS)) : []) {
      const s = await stat(join(this.o.root, EGGS, egg)).catch(() => null);
      const limit = egg.startsWith(TEMP_PREFIX) ? this.o.buildTimeoutMs : this.o.maxIdleMs;
      if (s && now - s.mtimeMs > limit) {
        await rm(join(this.o.root, EGGS, egg), { force: true });
        removed.push(`${EGGS}/${egg}`);
      }
    }
    for (const name of names) {
      if (name === EGGS) continue;
      const dir = join(this.o.root, name);
      if (name.startsWith(TEMP_PREFIX)) {
        const s = await stat(dir).catch(() => null);
        if (s && now - s.mtimeMs > this.o.buildTimeoutMs) {
          await rm(dir, { recursive: true, force: true });
          removed.push(name);
        }
        continue;
      }
      const ready = await readFile(join(dir, READY), 'utf8').catch(() => null);
      if (ready === null) continue;
      const lastUsed = (await stat(join(dir, LAST_USED)).catch(() => null))?.mtimeMs ?? 0;
      envs.push({ dir, lastUsed, bytes: Number((JSON.parse(ready) as { bytes?: number }).bytes ?? 0) });
    }
    envs.sort((a, b) => a.lastUsed - b.lastUsed);
    let total = envs.reduce((n, e) => n + e.bytes, 0);
    for (const e of envs) {
      if (this.leases.has(e.dir)) continue;
      if (now - e.lastUsed <= this.o.maxIdleMs && total <= this.o.maxBytes) continue;
      // Unready first (a job that looks now does not take it), then gone.
      await rm(join(e.dir, READY), { force: true });
      await rm(e.dir, { recursive: true, force: true });
      total -= e.bytes;
      removed.push(e.dir.slice(this.o.root.length + 1));
    }
    return removed;
  }
}

function parseInfo(line: string): string[] | null {
  try {
    const v = JSON.parse(line) as { spiders?: unknown };
    return Array.isArray(v.spiders) && v.spiders.every((s) => typeof s === 'string') ? (v.spiders as string[]) : null;
  } catch {
    return null;
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function touch(path: string): Promise<void> {
  const now = new Date();
  await utimes(path, now, now).catch(() => writeFile(path, ''));
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath ?? entry.path, entry.name)).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

async function runCapture(program: string, args: string[], env: Record<string, string>): Promise<string> {
  const result = await runLines([program, ...args], { cwd: '/', env, timeoutMs: 60_000, line: () => undefined });
  if (result.code !== 0) throw new BuildError(`${program} ${args.join(' ')} failed`);
  return result.stdout.join('\n');
}
