import { spawn } from 'node:child_process';
import { processTreeRssBytes } from './process-tree';

describe('processTreeRssBytes', () => {
  it('adds the memory of the children to that of the process', async () => {
    const own = processTreeRssBytes(process.pid);
    expect(own).toBeGreaterThanOrEqual(process.memoryUsage().rss * 0.9);
    const child = spawn(process.execPath, ['-e', 'const b = Buffer.alloc(64 * 1024 * 1024, 1); setInterval(() => b[0]++, 1000)']);
    try {
      await new Promise((r) => setTimeout(r, 1500));
      expect(processTreeRssBytes(process.pid) - own).toBeGreaterThan(64 * 1024 * 1024);
    } finally {
      child.kill();
    }
  });

  it('is 0 for a process that does not exist', () => {
    expect(processTreeRssBytes(2 ** 22 + 1)).toBe(0);
  });
});
