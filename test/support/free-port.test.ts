import { createServer } from 'node:net';
import { freePort } from './spawn-platform';

/**
 * The ports end-to-end tests hand to the processes they start: a port handed out is taken
 * by nobody else until its process listens, seconds later.
 */
describe('freePort', () => {
  it('never hands out the same port twice, even once it is free again', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('skips a port something listens on', async () => {
    const taken = await freePort();
    const server = createServer();
    await new Promise<void>((r) => server.listen(taken, '127.0.0.1', () => r()));
    try {
      for (let i = 0; i < 300; i++) expect(await freePort()).not.toBe(taken);
    } finally {
      server.close();
    }
  });

  it('keeps below the ephemeral range, each jest worker inside a slice of its own', async () => {
    const saved = process.env.JEST_WORKER_ID;
    const sliceOf = (port: number) => Math.floor((port - 20_000) / 1500);
    try {
      const byWorker = new Map<number, number>();
      for (let worker = 1; worker <= 8; worker++) {
        process.env.JEST_WORKER_ID = String(worker);
        const port = await freePort();
        expect(port).toBeGreaterThanOrEqual(20_000);
        expect(port).toBeLessThan(32_768);
        byWorker.set(worker, sliceOf(port));
      }
      expect(new Set(byWorker.values()).size).toBe(8);
    } finally {
      if (saved === undefined) delete process.env.JEST_WORKER_ID;
      else process.env.JEST_WORKER_ID = saved;
    }
  });
});
