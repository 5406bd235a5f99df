import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlobStore } from '../ports/blob-store';
import { EnvironmentEviction } from './environment-eviction';
import { PythonEnvironments } from './python-environments';

const HOUR = 3_600_000;

/** Environments as a build leaves them (ready mark with their size, last-used mark), without building: eviction reads only these. */
describe('environment eviction', () => {
  let root: string;
  const options = (o: { maxIdleMs?: number; maxBytes?: number } = {}) => ({
    root,
    pipCacheDir: join(root, 'pip'),
    python: 'python3',
    buildTimeoutMs: HOUR,
    maxIdleMs: o.maxIdleMs ?? 24 * HOUR,
    maxBytes: o.maxBytes ?? 1000,
    baseEnv: {},
  });
  const envs = (o: { maxIdleMs?: number; maxBytes?: number } = {}) => new PythonEnvironments(options(o), {} as BlobStore);
  /** An environment of `bytes`, last used `ageMs` ago. */
  const ready = (name: string, bytes: number, ageMs: number) => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '.crawlhub-ready'), JSON.stringify({ bytes }));
    writeFileSync(join(dir, '.crawlhub-last-used'), '');
    const at = new Date(Date.now() - ageMs);
    utimesSync(join(dir, '.crawlhub-last-used'), at, at);
    return dir;
  };

  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'crawlhub-evict-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('removes the least recently used environments while their total is past the limit, never one a job holds', async () => {
    const e = envs({ maxBytes: 1000 });
    ready('1-oldest', 400, 4 * HOUR);
    const held = ready('1-old', 400, 3 * HOUR);
    ready('2-recent', 400, 2 * HOUR);
    ready('3-newest', 400, HOUR);
    const release = e.acquire({ dir: held, python: '', egg: '' });
    // 1600 bytes: the oldest goes, the held one stays, the next goes: 800 left.
    expect(await e.evict()).toEqual(['1-oldest', '2-recent']);
    expect([existsSync(held), existsSync(join(root, '3-newest'))]).toEqual([true, true]);
    release();
    expect(await e.evict()).toEqual([]);
  });

  it('evicts at a runner\'s start, not only after a build: environments unused for too long go', async () => {
    ready('1-idle', 10, 25 * HOUR);
    ready('2-used', 10, HOUR);
    const eviction = new EnvironmentEviction(envs({ maxIdleMs: 24 * HOUR }));
    eviction.onApplicationBootstrap();
    await eviction.settled();
    await eviction.onApplicationShutdown();
    expect([existsSync(join(root, '1-idle')), existsSync(join(root, '2-used'))]).toEqual([false, true]);
  });
});
