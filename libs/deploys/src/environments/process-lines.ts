import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string[];
}

/**
 * Runs argv (no shell) in its own process group, stdin closed, and hands each line of its
 * stdout and stderr to `line` as it comes (stdout lines are also returned). Past
 * `timeoutMs` the whole group is killed.
 */
export function runLines(argv: string[], o: { cwd: string; env: Record<string, string>; timeoutMs: number; line: (text: string, stream: 'stdout' | 'stderr') => void }): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const stdout: string[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, o.timeoutMs);
    const outputs = [
      new Promise<void>((r) => createInterface({ input: child.stdout! }).on('line', (l) => (stdout.push(l), o.line(l, 'stdout'))).on('close', r)),
      new Promise<void>((r) => createInterface({ input: child.stderr! }).on('line', (l) => o.line(l, 'stderr')).on('close', r)),
    ];
    let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    child.on('error', (e) => {
      o.line(`cannot start ${argv[0]}: ${e.message}`, 'stderr');
      exited = { code: null, signal: null };
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      void Promise.all(outputs).then(() => resolve({ ...(exited ?? { code, signal }), timedOut, stdout }));
    });
  });
}
