import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * The built platform (`npm start`) as child processes, for the end-to-end tests that
 * kill it (SIGKILL, SIGTERM) and start it again. `npm run build` first (npm test does it).
 */

/** The built entry point the child processes run. */
export const MAIN = join(__dirname, '../../dist/apps/all/main.js');

/**
 * Ports a test hands to a process it starts, below Linux's ephemeral range (32768–60999):
 * a port the kernel picked (listen on 0) is free only until the kernel gives it out again
 * as the local port of an outgoing connection (a Kafka or MongoDB client's), and the
 * process then fails to start with EADDRINUSE. The kernel never gives out these.
 *
 * A port is free only until its process listens, seconds later, so two tests must never
 * be handed the same one in the meantime: each jest worker draws from a slice of its own
 * (JEST_WORKER_ID), and a test file never hands out a port twice. A CI run once lost the
 * whole hostile suite (757 tests) to a platform that found its port taken.
 */
const TEST_PORTS = { from: 20_000, to: 32_000 };
const WORKER_SLICES = 8;
const handedOut = new Set<number>();

function workerSlice(): { from: number; size: number } {
  const size = Math.floor((TEST_PORTS.to - TEST_PORTS.from) / WORKER_SLICES);
  const worker = Math.max(1, Number(process.env.JEST_WORKER_ID) || 1);
  return { from: TEST_PORTS.from + ((worker - 1) % WORKER_SLICES) * size, size };
}

function listenable(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const s = createServer()
      .once('error', () => resolve(false))
      .listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A TCP port free on 127.0.0.1 right now, that no outgoing connection or other test will take. */
export async function freePort(): Promise<number> {
  const slice = workerSlice();
  const start = Math.floor(Math.random() * slice.size);
  for (let i = 0; i < slice.size; i++) {
    const port = slice.from + ((start + i) % slice.size);
    if (handedOut.has(port) || !(await listenable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free test port left in ${slice.from}–${slice.from + slice.size - 1} (JEST_WORKER_ID ${process.env.JEST_WORKER_ID ?? 'unset'})`);
}

/** Whether a process (a platform's, or a job's it started) still exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The environment of an API platform (storage and dash) a test spawns as processes, kept
 * apart from every other platform of the run: on the Kafka and MongoDB lanes, topics,
 * consumer groups and a database of its own (`unique`); its data dir, ports, admin key and
 * job token secret. Roles started with it (runners, a second API) share them.
 */
export function isolatedPlatformEnv(o: { unique: string; dataDir: string; ports: { storage: number; dash: number }; adminKey: string }): Record<string, string> {
  return {
    EVENT_LOG_NAMESPACE: `${o.unique}-`,
    MONGODB_DATABASE: `crawlhub_${o.unique}`,
    DATA_DIR: o.dataDir,
    HOST: '127.0.0.1',
    STORAGE_PORT: String(o.ports.storage),
    DASH_PORT: String(o.ports.dash),
    CRAWLHUB_ADMIN_KEY: o.adminKey,
    JOB_TOKEN_SECRET: `secret-${o.unique}`,
  };
}

export interface SpawnPlatformOptions {
  /** Set on top of this process's environment. */
  env: NodeJS.ProcessEnv;
  /** APP_ROLE, e.g. 'storage,projector' or 'runner'. */
  roles: string;
  /** Names the process in the start errors; default 'platform'. */
  name?: string;
  /** How long to wait for "crawlhub is up"; default 30 s. */
  startTimeoutMs?: number;
}

export interface SpawnedPlatform {
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr interleaved. */
  output(): string;
  /** Whether it has exited (or was killed by a signal). */
  exited(): boolean;
  /** Sends a signal (default SIGTERM); does not wait. */
  kill(signal?: NodeJS.Signals): void;
  /** Resolves once it has exited (at once if it already has). */
  waitExit(): Promise<void>;
  /** Sends `signal` unless it has exited, then waits for it to exit; after `graceMs` sends SIGKILL. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

/**
 * Spawns `node dist/apps/all/main.js` with `env` and APP_ROLE `roles`, and resolves once it
 * printed "crawlhub is up". Rejects with its output so far when it exits first or does not
 * come up within `startTimeoutMs` (then it is killed).
 */
export async function spawnPlatform({ env, roles, name = 'platform', startTimeoutMs = 30_000 }: SpawnPlatformOptions): Promise<SpawnedPlatform> {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...env, APP_ROLE: roles }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  // 'close', not 'exit': the process may be gone before its last output is read from the pipes.
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  await new Promise<void>((resolve, reject) => {
    let up = false;
    const timer = setTimeout(() => {
      reject(new Error(`${name} did not start:\n${out}`));
      child.kill('SIGKILL');
    }, startTimeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (!up && out.includes('crawlhub is up')) {
        up = true;
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${out}`));
    });
  });
  const waitExit = async () => {
    await exit;
  };
  return {
    child,
    output: () => out,
    exited,
    kill: (signal = 'SIGTERM') => {
      child.kill(signal);
    },
    waitExit,
    stop: async (signal = 'SIGTERM', graceMs = Infinity) => {
      if (exited()) return;
      child.kill(signal);
      if (graceMs === Infinity) return waitExit();
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((r) => (timer = setTimeout(r, graceMs)));
      await Promise.race([waitExit(), grace]);
      clearTimeout(timer);
      if (!exited()) {
        child.kill('SIGKILL');
        await waitExit();
      }
    },
  };
}
