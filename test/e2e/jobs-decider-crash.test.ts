import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@crawlhub/config';
import { JOBS_DECIDED, JOBS_REQUESTED_TYPES, JOBS_TOPIC, JobsDecided } from '@crawlhub/contracts';
import { LoggedEvent, partitionForKey } from '@crawlhub/eventlog';
import { JobsDecision } from '@crawlhub/jobs';
import { openCore } from '@crawlhub/platform';
import { basic } from '../support/platform';
import { freePort, spawnPlatform } from '../support/spawn-platform';

jest.setTimeout(240_000);

const KEY = 'decider-crash-admin-key-0001';
const PROJECT = 61;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The jobs decider runs beside the projector: SIGKILL that process while pushes and claims
 * stream in (the decider has a backlog, so the kill lands in the middle of a batch: facts
 * appended, the group's offset not committed), start it again, and every request has
 * exactly one fact in the log, job numbers are handed out once each, no job is claimed
 * twice, and every acknowledged answer is what the log and the views say. On the lane's
 * log and view store (the Kafka lane: a consumer group rebalanced onto the new process).
 */
describe('jobs decider: SIGKILL in the middle of a batch', () => {
  it('decides every request exactly once across the crash', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crawlhub-decider-crash-'));
    const ports = { storage: await freePort(), dash: await freePort() };
    const unique = `dc${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const env = {
      EVENT_LOG_NAMESPACE: `${unique}-`,
      MONGODB_DATABASE: `crawlhub_${unique}`,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      STORAGE_PORT: String(ports.storage),
      DASH_PORT: String(ports.dash),
      CRAWLHUB_ADMIN_KEY: KEY,
      // Requests made while the decider is down wait for it rather than answer 503.
      READ_YOUR_WRITES_TIMEOUT_MS: '120000',
      LOG_LEVEL: 'warn',
    };
    const start = (roles: string) => spawnPlatform({ env, roles, name: roles, startTimeoutMs: 60_000 });
    const base = `http://127.0.0.1:${ports.storage}`;
    const post = async (path: string, body: unknown) => {
      const res = await fetch(base + path, { method: 'POST', body: JSON.stringify(body), headers: { authorization: basic(KEY) } });
      return { status: res.status, text: await res.text() };
    };

    let decider = await start('projector');
    const api = await start('storage,dash');
    const pushed: string[] = [];
    const claimed: string[] = [];
    let stop = false;
    let beforeKill = 0;
    const pusher = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const r = await post(`/jobq/${PROJECT}/push`, { spider: 's', meta: { writer: n, i } });
        expect(r.status).toBe(200);
        pushed.push(JSON.parse(r.text).key);
      }
    };
    const claimer = async () => {
      while (!stop) {
        const r = await post(`/jobq/${PROJECT}/startjob`, {});
        expect(r.status).toBe(200);
        if (r.text) claimed.push(JSON.parse(r.text).key);
      }
    };
    try {
      // Once the decider decides (on Kafka its group join takes a few seconds after the start).
      const first = await post(`/jobq/${PROJECT}/push`, { spider: 's', meta: { first: true } });
      expect(first.status).toBe(200);
      pushed.push(JSON.parse(first.text).key);
      const writers = [...[1, 2, 3, 4, 5, 6].map(pusher), claimer(), claimer()];
      await sleep(2_000);
      beforeKill = pushed.length - 1;
      await decider.stop('SIGKILL');
      await sleep(500);
      decider = await start('projector');
      // Until requests are decided again after the restart.
      for (const deadline = Date.now() + 60_000; pushed.length < beforeKill + 20; ) {
        if (Date.now() > deadline) throw new Error(`no request decided after the restart (${pushed.length} pushes answered)`);
        await sleep(100);
      }
      stop = true;
      await Promise.all(writers);
    } finally {
      stop = true;
      await api.stop('SIGTERM', 10_000);
      await decider.stop('SIGTERM', 10_000);
    }
    expect(beforeKill).toBeGreaterThan(0);

    // The log: one fact per request, numbers handed out once, claims once.
    const core = await openCore(loadConfig({ ...process.env, ...env }));
    try {
      const log = core.eventLog;
      await log.ensureTopics([JOBS_TOPIC]);
      const partition = partitionForKey(String(PROJECT), log.partitionCount(JOBS_TOPIC));
      const events: LoggedEvent[] = [];
      for (let from = 0; ; ) {
        const page = await log.read(JOBS_TOPIC, partition, from, 1000);
        if (page.length === 0) break;
        events.push(...page.filter((e) => e.event.key === String(PROJECT)));
        from = page[page.length - 1].offset + 1;
      }
      const requests = events.filter((e) => JOBS_REQUESTED_TYPES.includes(e.event.type));
      const facts = events.filter((e) => e.event.type === JOBS_DECIDED);
      const factsOf = new Map<string, number>();
      for (const f of facts) factsOf.set(f.event.causationId!, (factsOf.get(f.event.causationId!) ?? 0) + 1);
      const twice = requests.filter((r) => (factsOf.get(r.event.id) ?? 0) !== 1).map((r) => `${r.offset}: ${factsOf.get(r.event.id) ?? 0} facts`);
      expect(twice).toEqual([]);
      expect(facts).toHaveLength(requests.length);

      const outcomes = facts.map((f) => ((f.event.data as JobsDecided).decision as JobsDecision).outcome);
      const pushKeys = outcomes.flatMap((o) => (o.op === 'push' ? [o.key] : []));
      expect(pushKeys).toEqual(pushKeys.map((_, i) => `${PROJECT}/1/${i + 1}`));
      const claimKeys = outcomes.flatMap((o) => (o.op === 'start' && o.key !== null ? [o.key] : []));
      expect(new Set(claimKeys).size).toBe(claimKeys.length);
      // What the clients were answered is what the log says.
      expect(pushKeys).toEqual(expect.arrayContaining(pushed));
      expect(new Set(pushed).size).toBe(pushed.length);
      expect(claimKeys).toEqual(expect.arrayContaining(claimed));
      expect(new Set(claimed).size).toBe(claimed.length);
    } finally {
      if (core.views.kind === 'mongodb') await core.views.db.db.dropDatabase().catch(() => undefined);
      await core.close();
    }
  });
});
