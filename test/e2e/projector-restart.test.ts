import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basic } from '../support/platform';
import { freePort, spawnPlatform, SpawnedPlatform } from '../support/spawn-platform';

jest.setTimeout(180_000);

const KEY = 'projector-restart-admin-key-0001';
/**
 * From the SIGKILL to a new write answered 200. A start of the projector process takes a
 * few seconds on a quiet machine, up to about 20 s on the shared two cores of CI; on Kafka
 * its group join may then wait for the killed member's session to expire, at most 10 s
 * after the kill (KafkaEventLogOptions.sessionTimeoutMs), overlapping the start. Before the
 * fix, a loaded host took over 100 s (docs/operations.md, "The projector's restart").
 */
const PROJECTING_AGAIN_WITHIN_MS = 45_000;

/**
 * The projector service of a fleet (`APP_ROLE=projector`) is SIGKILLed and started again,
 * on the lane's log and view store: a write made while it is down is stored (503 with
 * Retry-After) and projected once it is back, and the restarted process projects a new
 * write within PROJECTING_AGAIN_WITHIN_MS of the kill. The restarted process projects on
 * its main thread, with the platform loaded once: the projector group's consumer lag is on
 * its own /metrics (a worker thread kept its own registry, and loaded every module and
 * opened the log and the store a second time: most of the CPU a restart needs, which on a
 * loaded host is what kept writes answering 503 for minutes).
 */
describe('the projector process, SIGKILLed and started again', () => {
  it('projects a new write soon after the kill, having loaded the platform once', async () => {
    const ports = { storage: await freePort(), ops: await freePort() };
    const unique = `pr${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const env = {
      EVENT_LOG_NAMESPACE: `${unique}-`,
      MONGODB_DATABASE: `crawlhub_${unique}`,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'crawlhub-projector-restart-')),
      HOST: '127.0.0.1',
      STORAGE_PORT: String(ports.storage),
      CRAWLHUB_ADMIN_KEY: KEY,
      LOG_LEVEL: 'warn',
      // A write that finds no projector answers 503 soon, and is retried (as clients do).
      READ_YOUR_WRITES_TIMEOUT_MS: '2000',
    };
    // The projector's /healthz, /readyz and /metrics, as a fleet's projector service has them.
    const start = (roles: string) => spawnPlatform({ env: roles === 'projector' ? { ...env, OPS_PORT: String(ports.ops) } : env, roles, name: roles, startTimeoutMs: 60_000 });
    let n = 0;
    const put = async () => {
      const res = await fetch(`http://127.0.0.1:${ports.storage}/collections/1/s/restart/k${n++}`, { method: 'POST', body: JSON.stringify({ value: n }), headers: { authorization: basic(KEY) } });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
    };
    /** Writes until one is answered 200; every other answer must be the "stored, views lagging" 503. */
    const putUntilProjected = async (deadline: number) => {
      for (;;) {
        const answer = await put();
        if (answer.status === 200) return;
        expect([answer.status, answer.retryAfter]).toEqual([503, expect.any(String)]);
        if (Date.now() > deadline) throw new Error(`no write projected in time: ${answer.status} ${answer.body}`);
      }
    };

    let projector: SpawnedPlatform | undefined;
    let storage: SpawnedPlatform | undefined;
    try {
      projector = await start('projector');
      storage = await start('storage');
      await putUntilProjected(Date.now() + 60_000);
      await projector.stop('SIGKILL');
      const killed = Date.now();
      const storedWhileDown = `k${n}`;
      const whileDown = await put();
      expect([whileDown.status, whileDown.retryAfter]).toEqual([503, expect.any(String)]);
      projector = await start('projector');
      await putUntilProjected(killed + PROJECTING_AGAIN_WITHIN_MS);
      const tookMs = Date.now() - killed;
      console.log(`projector restart: a new write projected ${(tookMs / 1000).toFixed(1)} s after the SIGKILL`);
      expect(tookMs).toBeLessThan(PROJECTING_AGAIN_WITHIN_MS);
      // Everything acknowledged or stored while it was down is in the views.
      const keys = (await (await fetch(`http://127.0.0.1:${ports.storage}/collections/1/s/restart?meta=_key`, { headers: { authorization: basic(KEY) } })).text()).split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { _key: string })._key);
      expect(keys).toEqual(expect.arrayContaining(['k0', storedWhileDown, `k${n - 1}`]));
      const metrics = await (await fetch(`http://127.0.0.1:${ports.ops}/metrics`)).text();
      expect(metrics).toMatch(/^crawlhub_consumer_lag_events\{group="[^"]*projector",/m);
    } finally {
      await storage?.stop('SIGTERM', 10_000);
      await projector?.stop('SIGTERM', 10_000);
    }
  });
});
