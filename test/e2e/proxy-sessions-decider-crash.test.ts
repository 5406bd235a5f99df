import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@crawlhub/config';
import { PROXY_SESSION_CREATED, PROXY_SESSION_DECIDED, PROXY_SESSIONS_TOPIC, ProxySessionCreated, ProxySessionDecided } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { openCore } from '@crawlhub/platform';
import { basic } from '../support/platform';
import { direct } from '../support/proxy-client';
import { freePort, spawnPlatform } from '../support/spawn-platform';

jest.setTimeout(240_000);

const KEY = 'sessions-crash-admin-key-001';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The sessions decider runs beside the projector: SIGKILL that process while session
 * creates stream in through a proxy process (the decider has a backlog, so the kill lands
 * in the middle of a batch: facts appended, the group's offset not committed), start it
 * again, and every create request has exactly one fact in the log, and every session a
 * client was given is an active one in the log. On the lane's log and view store (the Kafka
 * lane: a consumer group rebalanced onto the new process).
 */
describe('proxy sessions decider: SIGKILL in the middle of a batch', () => {
  it('decides every create exactly once across the crash', async () => {
    const unique = `sc${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const env = {
      EVENT_LOG_NAMESPACE: `${unique}-`,
      MONGODB_DATABASE: `crawlhub_${unique}`,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'crawlhub-sessions-crash-')),
      HOST: '127.0.0.1',
      PROXY_PORT: String(await freePort()),
      STATS_PORT: String(await freePort()),
      CRAWLHUB_ADMIN_KEY: KEY,
      // Creates made while the decider is down wait for it rather than answer 503.
      READ_YOUR_WRITES_TIMEOUT_MS: '120000',
      LOG_LEVEL: 'warn',
    };
    const start = (roles: string) => spawnPlatform({ env, roles, name: roles, startTimeoutMs: 60_000 });
    const port = Number(env.PROXY_PORT);
    const create = () => direct(port, '/sessions', { Authorization: basic(KEY) }, 'POST');

    let decider = await start('projector');
    const proxy = await start('proxy');
    const given: string[] = [];
    let stop = false;
    let beforeKill = 0;
    const creator = async () => {
      while (!stop) {
        const r = await create();
        expect(r.status).toBe(200);
        given.push(r.body);
      }
    };
    try {
      // Once the decider decides (on Kafka its group join takes a few seconds after the start).
      const first = await create();
      expect(first.status).toBe(200);
      given.push(first.body);
      const creators = [1, 2, 3, 4].map(creator);
      // Creates flowing (a slow lane answers fewer per second), then the kill.
      for (const deadline = Date.now() + 60_000; given.length < 12 && Date.now() < deadline; ) await sleep(100);
      beforeKill = given.length;
      await decider.stop('SIGKILL');
      await sleep(500);
      decider = await start('projector');
      // Until creates are decided again after the restart.
      for (const deadline = Date.now() + 60_000; given.length < beforeKill + 20; ) {
        if (Date.now() > deadline) throw new Error(`no create decided after the restart (${given.length} answered)`);
        await sleep(100);
      }
      stop = true;
      await Promise.all(creators);
    } finally {
      stop = true;
      await proxy.stop('SIGTERM', 10_000);
      await decider.stop('SIGTERM', 10_000);
    }
    expect(beforeKill).toBeGreaterThan(1);

    const core = await openCore(loadConfig({ ...process.env, ...env }));
    try {
      await core.eventLog.ensureTopics([PROXY_SESSIONS_TOPIC]);
      const events: LoggedEvent[] = [];
      for (let partition = 0; partition < core.eventLog.partitionCount(PROXY_SESSIONS_TOPIC); partition++) {
        for (let from = 0; ; ) {
          const page = await core.eventLog.read(PROXY_SESSIONS_TOPIC, partition, from, 1000);
          if (page.length === 0) break;
          events.push(...page);
          from = page[page.length - 1].offset + 1;
        }
      }
      const requests = events.filter((e) => e.event.type === PROXY_SESSION_CREATED);
      const facts = events.filter((e) => e.event.type === PROXY_SESSION_DECIDED);
      const factsOf = new Map<string, number>();
      for (const f of facts) factsOf.set(f.event.causationId!, (factsOf.get(f.event.causationId!) ?? 0) + 1);
      expect(requests.filter((r) => factsOf.get(r.event.id) !== 1).map((r) => `${r.offset}: ${factsOf.get(r.event.id) ?? 0} facts`)).toEqual([]);
      expect(facts).toHaveLength(requests.length);
      // What the clients were given is what the log says: each id once, each an active session.
      const active = new Set(facts.map((f) => f.event.data as ProxySessionDecided).filter((d) => d.outcome === 'active').map((d) => d.id));
      expect(new Set(given).size).toBe(given.length);
      expect(given.filter((id) => !active.has(id))).toEqual([]);
      expect(requests.map((r) => (r.event.data as ProxySessionCreated).id).sort()).toEqual(expect.arrayContaining([...given].sort()));
    } finally {
      if (core.views.kind === 'mongodb') await core.views.db.db.dropDatabase().catch(() => undefined);
      await core.close();
    }
  });
});
