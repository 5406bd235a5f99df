import { spawn } from 'node:child_process';
import { processTreeMemoryBytes } from './process-tree';

describe('processTreeMemoryBytes', () => {
  it('adds the memory of the children to that of the process', async () => {
    const own = processTreeMemoryBytes(process.pid);
    expect(own).toBeGreaterThan(process.memoryUsage().heapUsed);
    expect(own).toBeLessThanOrEqual(process.memoryUsage().rss * 1.1);
    const child = spawn(process.execPath, ['-e', 'const b = Buffer.alloc(64 * 1024 * 1024, 1); setInterval(() => b[0]++, 1000)']);
    try {
      await new Promise((r) => setTimeout(r, 1500));
      expect(processTreeMemoryBytes(process.pid) - own).toBeGreaterThan(64 * 1024 * 1024);
    } finally {
      child.kill();
    }
  });

  it('is 0 for a process that does not exist', () => {
    expect(processTreeMemoryBytes(2 ** 22 + 1)).toBe(0);
  });
});
