import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startTestPlatform, TestPlatform } from '../support/platform';
import { describeIf, needs } from '../support/skip';

/**
 * Runs one of the Python compatibility scripts of test/compat (the official clients,
 * installed by test/compat/python-env.sh into the python PYTHON_CLIENTS names) against a
 * fresh test platform, as a jest suite. Without PYTHON_CLIENTS the suite is skipped.
 */

/** The project the scripts use (PROJECT_ID, their last argument). */
export const PROJECT = 2222222;
const TIMEOUT_MS = 120_000;

export interface PythonCheck {
  /** The describe() title. */
  title: string;
  /** The it() title. */
  test: string;
  /** The script's file name, in test/compat. */
  script: string;
  /** The projects the script's API key is bound to. */
  projects: number[];
  /** The script's arguments, given the platform and the key. */
  args(platform: TestPlatform, key: string): string[];
  /** Settings of the test platform (environment names, see libs/config). */
  env?: Record<string, string>;
}

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/**
 * Runs `python script args...` (killed after `timeoutMs`, default 120 s), with stdout and
 * stderr together in `output`. `script` may also be an interpreter option (`-m`).
 */
export function runScript(
  python: string,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  { cwd, timeoutMs = TIMEOUT_MS }: { cwd?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [script, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      output += `\n[killed after ${timeoutMs} ms]\n`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

export function describePythonCheck(check: PythonCheck): void {
  const python = process.env.PYTHON_CLIENTS ?? '';
  describeIf(needs.pythonClients)(check.title, () => {
    let platform: TestPlatform;

    beforeAll(async () => {
      platform = await startTestPlatform(check.env);
    }, 60_000);

    afterAll(async () => {
      await platform?.stop();
    }, 60_000);

    it(
      check.test,
      async () => {
        const key = await platform.createKey(check.projects);
        const env: NodeJS.ProcessEnv = { ...process.env, PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' };
        // The client reads these when arguments are missing; make sure none leaks in.
        for (const v of ['SH_APIKEY', 'SHUB_APIKEY', 'SHUB_JOBAUTH', 'SHUB_STORAGE', 'SHUB_JOBQ', 'SHUB_APIURL']) delete env[v];
        const result = await runScript(python, join(__dirname, check.script), check.args(platform, key), env);
        if (result.code !== 0) {
          throw new Error(`${check.script} exited with ${result.code ?? result.signal}:\n${result.output}`);
        }
        expect(result.output).toMatch(/^ok /m);
      },
      TIMEOUT_MS + 10_000,
    );
  });
}
