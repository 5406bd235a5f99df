import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BENCH_KEY = 'bench-admin-key-000000000001';
export const BENCH_AUTH = `Basic ${Buffer.from(`${BENCH_KEY}:`).toString('base64')}`;

/** Prints one figure and, when a baseline of the same run is given, the ratio to it. */
export function report(name: string, value: number, unit: string, target?: number, baseline?: { name: string; value: number }): void {
  const parts = [`${name}: ${Math.round(value).toLocaleString('en-US')} ${unit}`];
  if (target !== undefined) parts.push(`target ${target.toLocaleString('en-US')} (${value >= target ? 'met' : 'NOT met'})`);
  if (baseline) parts.push(`${(value / baseline.value).toFixed(2)}x of ${baseline.name} (${Math.round(baseline.value).toLocaleString('en-US')} ${unit})`);
  console.log(`  ${parts.join('; ')}`);
}

/** A minimal keep-alive HTTP POST/GET used by the load generators (no fetch overhead); `text` is the body of errors, or of every answer with `keepBody`. */
export function httpCall(url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: Buffer, keepBody = false): Promise<{ status: number; bytes: number; text?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) }, agent: keepAlive }, (res) => {
      let bytes = 0;
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => {
        bytes += d.length;
        if (keepBody || res.statusCode !== 200) chunks.push(d);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, text: chunks.length ? Buffer.concat(chunks).toString() : undefined }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** USER_HZ of Linux: /proc reports CPU times in 1/100 s on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

const keepAlive = new Agent({ keepAlive: true, maxSockets: 64 });

/**
 * The platform as `npm start` runs it: its own process (projector thread included).
 * BENCH_NODE_ARGS adds node options to it, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
 * to profile the platform under a benchmark's load.
 */
export async function startPlatform(env: Record<string, string>, options: { dataDir?: string } = {}) {
  // Another process of the same platform (a worker of the fleet) shares the first one's data dir.
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'crawlhub-bench-'));
  const port = 28000 + Math.floor(Math.random() * 1000);
  const dashPort = port + 1000;
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, join(__dirname, '../apps/all/main.js')], {
    env: { ...process.env, DATA_DIR: dataDir, STORAGE_PORT: String(port), DASH_PORT: String(dashPort), CRAWLHUB_ADMIN_KEY: BENCH_KEY, APP_ROLE: 'storage,dash,projector', MONGODB_DATABASE: `bench_${Date.now()}`, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('crawlhub is up')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`platform exited with ${code}: ${out}`)));
  });
  child.removeAllListeners('exit');
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    dashUrl: `http://127.0.0.1:${dashPort}/api`,
    /** Current and peak resident memory of the platform process, MB. */
    memory: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
    },
    /** CPU time the platform process (all its threads) has used so far, ms: a figure a busy machine does not distort as much as a rate. */
    cpuMs: () => {
      // Fields 14 and 15 of /proc/<pid>/stat (utime, stime) in clock ticks; the name (field 2) may hold spaces, so count from its ')'.
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
    },
    dataDir,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** p-th percentile (0..100) of sorted numbers. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
