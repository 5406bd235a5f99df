import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const CLI = join(__dirname, '../../dist/apps/cli/main.js');

/** Runs the built `crawlhub` CLI on an embedded (SQLite) platform in `dataDir` (`env` may name another log and view store): exit code and output. */
export function cli(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm run build first (npm test does it)`);
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, DATA_DIR: dataDir, EVENT_LOG: 'sqlite', VIEW_STORE: 'sqlite', ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr }),
    );
  });
}
