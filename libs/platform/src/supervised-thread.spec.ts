import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { startSupervisedThread } from './supervised-thread';

/**
 * Threads made for the test: each start appends a line to a file, says 'ready', and dies
 * as told (throws, or exits) a little later while `deaths` is not used up.
 */
function thread(dir: string, how: 'throw' | 'exit' | 'none', deaths: number) {
  const starts = join(dir, 'starts');
  writeFileSync(starts, '');
  const code = `
    const { parentPort } = require('node:worker_threads');
    const fs = require('node:fs');
    fs.appendFileSync(${JSON.stringify(starts)}, Date.now() + '\\n');
    const n = fs.readFileSync(${JSON.stringify(starts)}, 'utf8').trim().split('\\n').length;
    parentPort.on('message', (m) => { if (m === 'stop') parentPort.postMessage('stopped'); });
    parentPort.postMessage('ready');
    if (n <= ${deaths}) setTimeout(() => { ${how === 'throw' ? "throw new Error('boom')" : how === 'exit' ? 'process.exit(3)' : ''} }, 20);
  `;
  const times = () => readFileSync(starts, 'utf8').trim().split('\n').filter(Boolean).map(Number);
  return { spawn: () => new Worker(code, { eval: true }), starts: () => times().length, times };
}

const until = async (check: () => boolean, ms = 5000) => {
  for (const end = Date.now() + ms; !check(); ) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('a supervised thread', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'crawlhub-thread-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['throw', 'exit'] as const)('is started again when it dies (%s) after it was ready, with a growing backoff', async (how) => {
    const t = thread(dir, how, 2);
    const supervised = await startSupervisedThread(t.spawn, { name: 'TestThread', backoffMs: 100, maxBackoffMs: 1000 });
    await until(() => supervised.restarts === 2);
    expect(t.starts()).toBe(3);
    // Each thread dies 20 ms after it starts; the waits before its restarts were 100, then 200 ms.
    const [first, second, third] = t.times();
    expect(second - first).toBeGreaterThanOrEqual(120);
    expect(third - second).toBeGreaterThanOrEqual(220);
    // The third start stays up: no more restarts.
    await new Promise((r) => setTimeout(r, 200));
    expect(supervised.restarts).toBe(2);
    await supervised.stop();
  });

  it('fails the start when the thread dies before it is ready', async () => {
    const spawn = () => new Worker("throw new Error('no store')", { eval: true });
    await expect(startSupervisedThread(spawn, { name: 'TestThread' })).rejects.toThrow('no store');
  });

  it('is not started again after stop', async () => {
    const t = thread(dir, 'none', 0);
    const supervised = await startSupervisedThread(t.spawn, { name: 'TestThread', backoffMs: 10 });
    await supervised.stop();
    await new Promise((r) => setTimeout(r, 100));
    expect(t.starts()).toBe(1);
    expect(supervised.restarts).toBe(0);
  });
});
