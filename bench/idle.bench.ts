import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { WAL_CHECKPOINT_INTERVAL_MS } from '@crawlhub/eventlog';
import { startPlatform } from './bench-support';
import { freePort } from './proxy-support';

/** What an idle platform may write: its heartbeats (a few KB a beat), nothing that adds up. */
export const IDLE_TARGETS = {
  /** Bytes the platform process writes per minute of doing nothing. */
  writtenPerMinute: 1024 * 1024,
  /** Largest WAL at the end of the idle period (SQLite files checkpoint while running). */
  walBytes: 256 * 1024,
  /** How much a SQLite database file may grow over the period. */
  growthBytes: 64 * 1024,
};

/** A wait long enough for the first WAL checkpoint after start (the start-up writes are folded then). */
export const IDLE_SETTLE_MS = WAL_CHECKPOINT_INTERVAL_MS + 5_000;

export interface IdleDiskFigures {
  seconds: number;
  /** `write_bytes` of /proc/<pid>/io over the period: what the process sent towards the disk. */
  writtenBytes: number;
  /** Each SQLite database and WAL of the data dir, its size at the start and at the end of the period. */
  files: { name: string; before: number; after: number }[];
}

function writeBytes(pid: number): number {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return Number(/^write_bytes:\s+(\d+)/m.exec(io)?.[1] ?? NaN);
}

function sqliteFileSizes(dataDir: string): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const name of readdirSync(dataDir)) if (/\.db(-wal)?$/.test(name)) sizes.set(name, statSync(join(dataDir, name)).size);
  return sizes;
}

/** Watches an idle platform process for `seconds`: the bytes it writes, and how its SQLite files change. */
export async function measureIdleDisk(pid: number, dataDir: string, seconds: number): Promise<IdleDiskFigures> {
  const before = sqliteFileSizes(dataDir);
  const written = writeBytes(pid);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const writtenBytes = writeBytes(pid) - written;
  const after = sqliteFileSizes(dataDir);
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return { seconds, writtenBytes, files: names.map((name) => ({ name, before: before.get(name) ?? 0, after: after.get(name) ?? 0 })) };
}

/** Each figure of a measurement in words, with its target and whether it is met. */
export function idleVerdicts(f: IdleDiskFigures): { figure: string; target: string; met: boolean }[] {
  const perMinute = (f.writtenBytes * 60) / f.seconds;
  const verdicts = [
    {
      figure: `written by the platform process: ${kb(perMinute)}/min (${((perMinute * 60 * 24) / 1024 ** 3).toFixed(2)} GB/day)`,
      target: `< ${kb(IDLE_TARGETS.writtenPerMinute)}/min`,
      met: perMinute <= IDLE_TARGETS.writtenPerMinute,
    },
  ];
  for (const file of f.files) {
    const wal = file.name.endsWith('-wal');
    verdicts.push({
      figure: `${file.name}: ${file.before.toLocaleString('en-US')} -> ${file.after.toLocaleString('en-US')} bytes`,
      target: wal ? `< ${kb(IDLE_TARGETS.walBytes)}` : `grows < ${kb(IDLE_TARGETS.growthBytes)}`,
      met: wal ? file.after <= IDLE_TARGETS.walBytes : file.after - file.before <= IDLE_TARGETS.growthBytes,
    });
  }
  return verdicts;
}

const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`;

/**
 * `npm run bench idle`: the whole platform (APP_ROLE=all, embedded log and views) with
 * nothing to do. It must not wear the disk: before, every consumer's heartbeat rewrote a
 * 64 KB page of the log, about 10 MB a minute, and the WAL grew until shutdown. No
 * baseline: what an idle program writes is not a figure to compare with.
 */
export async function idleBench(options: { seconds: number }): Promise<void> {
  const ports: Record<string, string> = {};
  for (const name of ['PROXY_PORT', 'FETCH_PORT', 'EXTRACT_PORT', 'STATS_PORT']) ports[name] = String(await freePort());
  const platform = await startPlatform({ APP_ROLE: 'all', EVENT_LOG: 'sqlite', VIEW_STORE: 'sqlite', ...ports });
  try {
    console.log(`idle: the platform (APP_ROLE=all, embedded log and views) doing nothing for ${options.seconds} s, after ${IDLE_SETTLE_MS / 1000} s for start-up and its first WAL checkpoint`);
    await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
    const f = await measureIdleDisk(platform.pid, platform.dataDir, options.seconds);
    for (const v of idleVerdicts(f)) console.log(`  ${v.figure} (target ${v.target}: ${v.met ? 'met' : 'NOT met'})`);
  } finally {
    await platform.stop();
  }
}
