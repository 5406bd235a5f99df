import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startTestPlatform, TestPlatform } from '../support/platform';

/**
 * The official Python client (`scrapinghub`, installed by test/compat/python-env.sh)
 * against job control (dash run.json, jobs/*), JobQ, job metadata, job tokens and
 * activity: test/compat/scrapinghub-jobs.py does the talking.
 */
const PYTHON = process.env.PYTHON_CLIENTS;
const SCRIPT = join(__dirname, 'scrapinghub-jobs.py');
const PROJECT = 2222222;
const TIMEOUT_MS = 120_000;

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

function runScript(python: string, args: string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [SCRIPT, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      output += `\n[killed after ${TIMEOUT_MS} ms]\n`;
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
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

const TITLE = 'official Python client (scrapinghub) against job control, JobQ and activity';

if (!PYTHON) {
  describe(TITLE, () => {
    it('is skipped', () => {
      console.warn('skipped: PYTHON_CLIENTS not set (test/run-tests.sh installs the official Python clients)');
    });
  });
} else {
  describe(TITLE, () => {
    let platform: TestPlatform;

    beforeAll(async () => {
      platform = await startTestPlatform();
    }, 60_000);

    afterAll(async () => {
      await platform?.stop();
    }, 60_000);

    it(
      'runs, lists, tags, cancels and deletes jobs, drives JobQ, writes with a job token, reads activity',
      async () => {
        // The script uses PROJECT and PROJECT + 1 (projects.list() / summary()).
        const key = await platform.createKey([PROJECT, PROJECT + 1]);
        const env: NodeJS.ProcessEnv = { ...process.env, PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' };
        // The client reads these when arguments are missing; make sure none leaks in.
        for (const v of ['SH_APIKEY', 'SHUB_APIKEY', 'SHUB_JOBAUTH', 'SHUB_STORAGE', 'SHUB_JOBQ', 'SHUB_APIURL']) delete env[v];
        const result = await runScript(PYTHON, [platform.storageUrl, platform.dashUrl, key, String(PROJECT)], env);
        if (result.code !== 0) {
          throw new Error(`scrapinghub-jobs.py exited with ${result.code ?? result.signal}:\n${result.output}`);
        }
        expect(result.output).toMatch(/^ok /m);
      },
      TIMEOUT_MS + 10_000,
    );
  });
}
