import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@crawlhub/config';
import { FRONTIER_DECIDED, FRONTIER_REQUEST_TYPES, FRONTIER_TOPIC } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { openCore } from '@crawlhub/platform';
import { basic } from '../support/platform';
import { freePort, MAIN, spawnPlatform } from '../support/spawn-platform';

jest.setTimeout(180_000);

const KEY = 'frontier-crash-admin-key-01';
const RUN = `fcrash${Date.now().toString(36)}`;
/** Its own topics (Kafka lane) and database (MongoDB lane): nothing of another run is seen. */
const NAMESPACE = `${RUN}-`;
const SLOTS = ['s0', 's1', 's2', 's3'];

const envOf = (dataDir: string, port: number) => ({ EVENT_LOG_NAMESPACE: NAMESPACE, MONGODB_DATABASE: RUN, DATA_DIR: dataDir, STORAGE_PORT: String(port), CRAWLHUB_ADMIN_KEY: KEY });
const startPlatform = (dataDir: string, port: number) => spawnPlatform({ env: envOf(dataDir, port), roles: 'storage,projector' });

/** Per request of the frontier topic (in log order), how many `frontier.decided` facts the log holds for it. */
async function factsPerRequest(env: Record<string, string>): Promise<number[]> {
  const core = await openCore(loadConfig({ ...process.env, ...env }));
  try {
    const log = core.eventLog;
    await log.ensureTopics([FRONTIER_TOPIC]);
    const events: LoggedEvent[] = [];
    for (let partition = 0; partition < log.partitionCount(FRONTIER_TOPIC); partition++) {
      for (let from = 0; ; ) {
        const page = await log.read(FRONTIER_TOPIC, partition, from, 1000);
        if (page.length === 0) break;
        events.push(...page);
        from = page[page.length - 1].offset + 1;
      }
    }
    const facts = new Map<string, number>();
    for (const e of events) if (e.event.type === FRONTIER_DECIDED) facts.set(e.event.causationId!, (facts.get(e.event.causationId!) ?? 0) + 1);
    return events.filter((e) => FRONTIER_REQUEST_TYPES.includes(e.event.type)).map((e) => facts.get(e.event.id) ?? 0);
  } finally {
    if (core.views.kind === 'mongodb') await core.views.db.db.dropDatabase().catch(() => undefined);
    await core.close();
  }
}

interface Batch {
  id: string;
  requests: [string, unknown][];
}

/**
 * SIGKILL of the built platform while crawlers drain the frontier (GET q, then POST
 * q/deleted of what they read) and producers keep enqueueing. After a restart on the
 * same data the drain finishes: every request whose POST was acknowledged is served at
 * least once (before or after the kill), and no batch whose delete was acknowledged is
 * served again. The frontier decider ran in the killed process (its batch of facts
 * half-appended, its group offset not committed): every request in the log has exactly
 * one fact (on the Kafka lane the decider's group rebalanced onto the new process).
 */
describe('frontier crash recovery (SIGKILL mid-drain)', () => {
  it('serves every acknowledged request, and no acknowledged delete comes back', async () => {
    expect(existsSync(MAIN)).toBe(true); // `npm run build` first (npm test does it)
    const dataDir = mkdtempSync(join(tmpdir(), 'crawlhub-frontier-crash-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: basic(KEY) };
    let platform = await startPlatform(dataDir, port);

    const acked = new Set<string>(); // fingerprints of acknowledged POSTs
    const served = new Set<string>(); // fingerprints seen in any read
    const deleted = new Set<string>(); // `<slot> <batch id>` of acknowledged deletes (ids are per slot)
    const post = async (slot: string, fps: string[]) => {
      const body = fps.map((fp) => JSON.stringify({ fp, qdata: { slot } })).join('\n') + '\n';
      const res = await fetch(`${base}/hcf/1/crash/s/${slot}`, { method: 'POST', body, headers });
      if (res.status !== 200) throw new Error(`POST answered ${res.status}: ${await res.text()}`);
      await res.json();
      fps.forEach((fp) => acked.add(fp));
    };
    const read = async (slot: string): Promise<Batch[]> => {
      const res = await fetch(`${base}/hcf/1/crash/s/${slot}/q?mincount=300`, { headers });
      if (res.status !== 200) throw new Error(`GET q answered ${res.status}`);
      const batches = (await res.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Batch);
      for (const b of batches) for (const [fp] of b.requests) served.add(fp);
      return batches;
    };
    const del = async (slot: string, ids: string[]) => {
      const res = await fetch(`${base}/hcf/1/crash/s/${slot}/q/deleted`, { method: 'POST', body: ids.map((id) => JSON.stringify(id)).join('\n'), headers });
      if (res.status !== 200) throw new Error(`POST q/deleted answered ${res.status}`);
      ids.forEach((id) => deleted.add(`${slot} ${id}`));
    };

    // Before the drain: 4 slots x 20 POSTs x 100 requests, all acknowledged.
    for (let n = 0; n < 20; n++) await Promise.all(SLOTS.map((slot) => post(slot, Array.from({ length: 100 }, (_, i) => `${slot}/${n}/${i}`))));
    expect(acked.size).toBe(8000);

    let stop = false;
    const quietly = async (work: () => Promise<void>) => {
      try {
        while (!stop) await work();
      } catch {
        // The platform died mid-request: that call was not acknowledged.
      }
    };
    let round = 0;
    const producers = SLOTS.map((slot) => quietly(() => post(slot, Array.from({ length: 50 }, (_, i) => `${slot}/late${round++}/${i}`))));
    const drainers = SLOTS.map((slot) =>
      quietly(async () => {
        const batches = await read(slot);
        if (batches.length) await del(slot, batches.map((b) => b.id));
        else await new Promise((r) => setTimeout(r, 20));
      }),
    );
    // Mid-drain: once some deletes are acknowledged (a loaded machine takes longer), while producers and drainers go on.
    for (const deadline = Date.now() + 60_000; deleted.size <= 10 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 300));
    platform.kill('SIGKILL');
    await platform.waitExit();
    stop = true;
    await Promise.all([...producers, ...drainers]);
    expect(deleted.size).toBeGreaterThan(10);
    const deletedBeforeKill = new Set(deleted);

    platform = await startPlatform(dataDir, port);
    try {
      const servedAgain: string[] = [];
      for (const slot of SLOTS) {
        for (;;) {
          const batches = await read(slot);
          if (!batches.length) break;
          servedAgain.push(...batches.map((b) => `${slot} ${b.id}`).filter((id) => deletedBeforeKill.has(id)));
          await del(slot, batches.map((b) => b.id));
        }
      }
      expect(servedAgain).toEqual([]);
      const missing = [...acked].filter((fp) => !served.has(fp));
      expect(missing).toEqual([]);
      // Nothing is left, and every fingerprint is still known (re-posting gives newcount 0).
      const again = await fetch(`${base}/hcf/1/crash/s/s0`, { method: 'POST', body: JSON.stringify({ fp: 's0/0/0' }), headers });
      expect(await again.json()).toEqual({ newcount: 0 });
      console.log(`frontier crash: ${acked.size} requests acknowledged, ${deletedBeforeKill.size} batch deletes acknowledged before the kill`);
    } finally {
      await platform.stop('SIGTERM', 10_000);
    }
    const facts = await factsPerRequest(envOf(dataDir, port));
    expect(facts.length).toBeGreaterThan(100);
    expect(facts.filter((n) => n !== 1)).toEqual([]);
  });
});
