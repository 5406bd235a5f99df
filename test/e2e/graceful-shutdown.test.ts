import { createServer, Server } from 'node:http';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RetryingClient } from '../support/retrying-client';
import { freePort, isolatedPlatformEnv, SpawnedPlatform, spawnPlatform } from '../support/spawn-platform';

/**
 * SIGTERM drains a process (apps/all/main.ts): for SHUTDOWN_DRAIN_MS its /readyz answers
 * 503 `shutting down` while it still serves every request; then it stops accepting, answers
 * what it has in flight (a proxied request to a slow site too), and exits 0. On every lane
 * (the built platform as a child process: `npm run build` first).
 */
describe('graceful shutdown: SIGTERM drains, then stops', () => {
  const KEY = 'graceful-shutdown-admin-key';
  const dir = mkdtempSync(join(tmpdir(), 'crawlhub-graceful-'));
  const unique = `gs${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const client = new RetryingClient(KEY, 5000);
  let platform: SpawnedPlatform;
  let origin: Server;
  let originUrl: string;
  let storageUrl: string;
  let proxyUrl: string;

  beforeAll(async () => {
    origin = createServer((req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end(`slow answer to ${req.url}`), 2500));
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
    originUrl = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
    const ports = { storage: await freePort(), dash: await freePort(), proxy: await freePort() };
    storageUrl = `http://127.0.0.1:${ports.storage}`;
    proxyUrl = `http://127.0.0.1:${ports.proxy}`;
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir);
    platform = await spawnPlatform({
      roles: 'storage,projector,proxy',
      startTimeoutMs: 120_000,
      env: {
        ...isolatedPlatformEnv({ unique, dataDir, ports, adminKey: KEY }),
        PROXY_PORT: String(ports.proxy),
        ALLOW_PRIVATE_TARGETS: 'true',
        PROXY_THROTTLE_SPACING_MS: '0',
        SHUTDOWN_DRAIN_MS: '2000',
        LOG_LEVEL: 'warn',
      },
    });
  }, 120_000);

  afterAll(async () => {
    await platform?.stop('SIGKILL');
    await new Promise((r) => origin?.close(r));
  });

  it('fails /readyz but serves during the drain, finishes what is in flight, and exits 0', async () => {
    // (A fresh embedded platform may not be ready yet, for its own reasons: not for this one.)
    expect((await client.sendOnce(`${storageUrl}/readyz`)).body).not.toContain('shutting down');
    const inFlight = client.send(`${originUrl}/in-flight`, { proxy: proxyUrl });
    // The proxied request reached the site (it answers 2.5 s later): stop now.
    await new Promise((r) => setTimeout(r, 500));
    const stoppedAt = Date.now();
    platform.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const ready = await client.sendOnce(`${storageUrl}/readyz`);
    expect([ready.status, ready.body, ready.headers['retry-after']]).toEqual([503, 'not ready: shutting down\n', '5']);
    // Still serving while the load balancers take it out of rotation.
    expect((await client.send(`${storageUrl}/collections/1/s/drain/k`, { method: 'POST', body: '{"value":"v"}' })).status).toBe(200);
    expect((await client.send(`${storageUrl}/collections/1/s/drain/k/value`)).body).toBe('v');
    const answer = await inFlight;
    expect([answer.status, answer.body]).toEqual([200, 'slow answer to /in-flight']);
    await platform.waitExit();
    expect(platform.child.exitCode).toBe(0);
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(2000);
    // No retry was needed: no connection was refused or cut.
    expect(client.retries).toEqual({ connection: 0, 'retry-after': 0 });
  }, 150_000);
});
