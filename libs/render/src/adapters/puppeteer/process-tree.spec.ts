import { spawn } from 'node:child_process';
import { descendantsOf, processTreeMemoryBytes } from './process-tree';

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

describe('descendantsOf', () => {
  it('lists children and grandchildren, and nothing once they are gone', async () => {
    const child = spawn(process.execPath, ['-e', "require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' }); setInterval(() => {}, 1000)"]);
    try {
      let found: number[] = [];
      for (let i = 0; i < 50 && found.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        found = descendantsOf(child.pid!);
      }
      expect(found).toHaveLength(1);
      expect(descendantsOf(process.pid)).toEqual(expect.arrayContaining([child.pid!, found[0]]));
      process.kill(found[0]);
    } finally {
      child.kill();
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(descendantsOf(process.pid)).not.toContain(child.pid);
  });
});
