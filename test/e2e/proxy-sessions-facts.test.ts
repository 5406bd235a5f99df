import { globalAgent } from 'node:http';
import { createEvent, EventEnvelope, PROXY_SESSION_CREATED, PROXY_SESSION_DECIDED, PROXY_SESSION_DELETED, PROXY_SESSIONS_TOPIC, PROXY_SESSIONS_TOUCHED, ProxySessionDecided } from '@crawlhub/contracts';
import { Core } from '@crawlhub/platform';
import { PROXY_SESSIONS_VIEW, ProxySessionService, ProxySessionsView, sessionAuditEntries } from '@crawlhub/proxy-sessions';
import * as decideModule from '../../libs/proxy-sessions/src/domain/decide-sessions';
import { startProxyApp, StartedProxy } from '../../apps/proxy/proxy.app';
import { auditJsonWithoutViews, auditWithoutViews, factsPerRequest, replayViews, upgradeLogBeforeFacts } from '../support/decision-facts';
import { keyStream } from '../support/jobs-stream';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';
import { direct, viaProxy } from '../support/proxy-client';
import { ProxyOrigin, startProxyOrigin } from '../support/proxy-origin';
import { stampsAt } from '../support/stamps';

jest.setTimeout(240_000);

const EXITS = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A decider that takes other decisions than the real one: it refuses every session and
 * forgets nothing. Switched on in this process only, where the projector (and the decider) run.
 */
function switchDeciderBehaviour(): jest.SpyInstance {
  return jest.spyOn(decideModule, 'decideSessionCreate').mockImplementation(async () => ({ outcome: 'refused', forgotten: [] }));
}

/**
 * Proxy session decisions are facts in the log (issue 17, "The log"): the limit, the
 * refusals and the idle sessions forgotten are `proxy-sessions.decided` facts, which replay
 * folds and never decides again; a log written before decisions were facts is decided once,
 * on replay, and its facts appended. On the lane's log and views.
 */
describe('proxy sessions: decisions are facts', () => {
  let p: TestPlatform;
  let origin: ProxyOrigin;
  const proxies: StartedProxy[] = [];

  /** A proxy process on the platform, some session settings changed. */
  async function proxyWith(sessions: Partial<Core['config']['proxySessions']> = {}): Promise<StartedProxy> {
    const config = p.core.config;
    const started = await startProxyApp({ ...p.core, config: { ...config, proxySessions: { ...config.proxySessions, ...sessions } } } as Core, ['error']);
    proxies.push(started);
    return started;
  }

  beforeAll(async () => {
    origin = await startProxyOrigin();
    p = await startTestPlatform({ PROXY_PORT: '0', ALLOW_PRIVATE_TARGETS: 'true', PROXY_EXITS: EXITS.join(','), PROXY_THROTTLE_SPACING_MS: '0' });
  }, 60_000);
  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
    await p?.stop();
    await origin?.close();
    globalAgent.destroy();
  });
  afterEach(() => jest.restoreAllMocks());

  const keyIdOf = async (secret: string) => (await p.access.authenticate(secret))!.id;
  const create = async (proxy: StartedProxy, key: string) => {
    const a = await viaProxy(proxy.port, `${origin.httpUrl}/whoami`, { key, headers: { 'X-Proxy-Session': 'create' } });
    return { status: a.status, error: a.headers['x-proxy-error'] ?? null, id: (a.headers['x-proxy-session'] as string | undefined) ?? null };
  };
  const post = async (proxy: StartedProxy, key: string) => {
    const a = await direct(proxy.port, '/sessions', { Authorization: basic(key) }, 'POST');
    return { status: a.status, error: a.headers['x-proxy-error'] ?? null, id: a.status === 200 ? a.body : null };
  };
  const use = async (proxy: StartedProxy, key: string, id: string) => {
    const a = await viaProxy(proxy.port, `${origin.httpUrl}/whoami`, { key, headers: { 'X-Proxy-Session': id } });
    return [a.status, a.headers['x-proxy-error'] ?? null, a.status === 200 ? (JSON.parse(a.body) as { remote: string }).remote : null];
  };
  const facts = async (user: string) => (await keyStream(p.core.eventLog, PROXY_SESSIONS_TOPIC, user)).filter((e) => e.event.type === PROXY_SESSION_DECIDED);
  /** How many facts each create request of the user has in the log. */
  const sessionFacts = async (user: string) => factsPerRequest(await keyStream(p.core.eventLog, PROXY_SESSIONS_TOPIC, user), [PROXY_SESSION_CREATED], PROXY_SESSION_DECIDED);

  it('replays to the same views and answers after the decider changed', async () => {
    const keys = [await p.createKey([1]), await p.createKey([1])];
    const users = await Promise.all(keys.map(keyIdOf));
    // Touches are flushed when the test says so only: a timer's flush between two reads would change the views.
    const quiet = { touchMs: 3_600_000 };
    const main = await proxyWith(quiet);
    const limited = await proxyWith({ ...quiet, limit: 2 });
    const shortIdle = await proxyWith({ ...quiet, limit: 2, idleMs: 1500 });

    // A history with every kind of decision: accepted, refused at the limit (by header and by POST), accepted after a delete made room,
    // touched and deleted sessions, and idle sessions forgotten to make room.
    const answers: unknown[] = [];
    const ids: string[] = [];
    const record = (a: { status: number; error: unknown; id: string | null }) => {
      answers.push([a.status, a.error]);
      if (a.id) ids.push(a.id);
      return a;
    };
    const a1 = record(await create(limited, keys[0]));
    record(await post(limited, keys[0]));
    record(await create(limited, keys[0]));
    record(await post(limited, keys[0]));
    expect((await direct(limited.port, `/sessions/${a1.id}`, { Authorization: basic(keys[0]) }, 'DELETE')).status).toBe(204);
    record(await create(limited, keys[0]));
    expect(await use(limited, keys[0], ids[1])).toEqual([200, null, expect.any(String)]);
    await limited.context.get(ProxySessionService).flush();
    // Idle sessions forgotten: two sessions of the second key idle for longer than 1.5 s when a third is asked for.
    record(await create(shortIdle, keys[1]));
    record(await create(shortIdle, keys[1]));
    await sleep(1_700);
    record(await create(shortIdle, keys[1]));
    record(await post(main, keys[1]));
    expect(answers).toEqual([[200, null], [200, null], [400, 'user_session_limit'], [400, 'user_session_limit'], [200, null], [200, null], [200, null], [200, null], [200, null]]);
    const decided = (await Promise.all(users.map(facts))).flat().map((f) => f.event.data as ProxySessionDecided);
    expect(decided.map((d) => [d.outcome, d.forgotten.length, d.deciderVersion])).toEqual([
      ['active', 0, 1], ['active', 0, 1], ['refused', 0, 1], ['refused', 0, 1], ['active', 0, 1],
      ['active', 0, 1], ['active', 0, 1], ['active', 2, 1], ['active', 0, 1],
    ]);

    const view = main.context.get<ProxySessionsView>(PROXY_SESSIONS_VIEW, { strict: false });
    const readAll = async () => [
      ...(await Promise.all(keys.map(async (k) => (await direct(main.port, '/sessions', { Authorization: basic(k) })).body))),
      ...(await Promise.all(ids.flatMap((id) => keys.map((k) => use(main, k, id))))),
      ...(await Promise.all(ids.flatMap((id) => users.map((u) => view.session(u, id))))),
    ];
    const before = await readAll();
    expect(JSON.parse(before[0] as string)).toEqual({ [ids[1]]: expect.any(String), [ids[2]]: expect.any(String) });
    expect(Object.keys(JSON.parse(before[1] as string))).toEqual([ids[5], ids[6]].sort());

    const auditBefore = await Promise.all(users.map((u) => sessionAuditEntries(p.core.eventLog, u)));
    expect(auditBefore[1].filter((a) => a.deciderVersion !== undefined).map((a) => [a.outcome, a.request, a.forgotten?.length])).toEqual([
      ['active', { limit: 2, idleMs: 1500 }, 0], ['active', { limit: 2, idleMs: 1500 }, 0], ['active', { limit: 2, idleMs: 1500 }, 2], ['active', { limit: 5000, idleMs: 1_800_000 }, 0],
    ]);

    const changed = switchDeciderBehaviour();
    await replayViews(p);
    expect(changed).not.toHaveBeenCalled();
    expect(await readAll()).toEqual(before);
    expect(await Promise.all(users.map(sessionFacts))).toEqual([[1, 1, 1, 1, 1], [1, 1, 1, 1]]);
    expect(await Promise.all(users.map((u) => sessionAuditEntries(p.core.eventLog, u)))).toEqual(auditBefore);

    // Audit reads the log alone: the same with every view deleted, through the CLI too (text and --json).
    expect(await auditJsonWithoutViews(p, users[0])).toEqual(JSON.parse(JSON.stringify(auditBefore[0])));
    const lines = (await auditWithoutViews(p, [users[0]])).out.split('\n');
    expect(lines.filter((l) => / decider v1 .*\(limit 2, idle 1800000 ms\) -> refused/.test(l))).toHaveLength(2);
    expect(lines.find((l) => l.includes('proxy-sessions.deleted'))).toMatch(new RegExp(` by key:${users[0]}  correlation [\\w-]+  session ${ids[0]}$`));
    await replayViews(p);
    expect(await readAll()).toEqual(before);

    // The switch is live: a new request is decided by the changed rules, the history stays (the create sent the
    // key's last uses first, so only the API's answers are compared).
    expect(await post(main, keys[1])).toMatchObject({ status: 400, error: 'user_session_limit' });
    expect(changed).toHaveBeenCalledTimes(1);
    const answersCount = keys.length + ids.length * keys.length;
    expect((await readAll()).slice(0, answersCount)).toEqual(before.slice(0, answersCount));
  });

  it('decides the creates of a log written before decisions were facts once, on replay, and appends their facts', async () => {
    // The current release's log: its events as its ProxySessionService appends them (this change keeps their type, version and
    // data), no fact. No decider runs while they are written.
    const key = await p.createKey([1]);
    const user = await keyIdOf(key);
    await p.projector!.stop();
    const t0 = Date.now();
    const ids = ['1000000000000001', '1000000000000002', '1000000000000003', '1000000000000004'];
    const created = (id: string, at: number): EventEnvelope => createEvent({ type: PROXY_SESSION_CREATED, key: user, data: { user, id, exit: '127.0.0.3', at, limit: 2, idleMs: 600_000 }, actor: { kind: 'key', id: user } }, stampsAt(at));
    const legacy: EventEnvelope[] = [
      created(ids[0], t0),
      created(ids[1], t0 + 1),
      // Over the limit: refused.
      created(ids[2], t0 + 2),
      createEvent({ type: PROXY_SESSIONS_TOUCHED, key: user, data: { user, lastUsed: { [ids[0]]: t0 + 500 } }, actor: { kind: 'system', id: 'proxy' } }, stampsAt(t0 + 500)),
      createEvent({ type: PROXY_SESSION_DELETED, key: user, data: { user, id: ids[1] }, actor: { kind: 'key', id: user } }, stampsAt(t0 + 600)),
      // The delete made room.
      created(ids[3], t0 + 700),
    ];
    for (const e of legacy) await p.core.eventLog.append(PROXY_SESSIONS_TOPIC, [e]);
    expect(await sessionFacts(user)).toEqual([0, 0, 0, 0]);

    // The views of that release (its sessions table): the decider does not decide on them; replay decides what has no fact, once, in log order.
    const oldViews = { sqlite: `CREATE TABLE proxy_sessions (user TEXT, id TEXT); INSERT INTO proxy_sessions VALUES ('${user}', '1')`, mongodb: { collection: 'proxy_sessions', _id: `${user}/1` } };
    await upgradeLogBeforeFacts(p, oldViews, () => sessionFacts(user));
    expect((await facts(user)).map((f) => (f.event.data as ProxySessionDecided).outcome)).toEqual(['active', 'active', 'refused', 'active']);
    await p.projector!.start();
    const main = await proxyWith({ idleMs: 600_000, limit: 2, touchMs: 3_600_000 });
    const readAll = async () => [(await direct(main.port, '/sessions', { Authorization: basic(key) })).body, ...(await Promise.all(ids.map((id) => use(main, key, id))))];
    const after = await readAll();
    // The touch and the delete that came before the facts in the log still count: session 2 stays deleted.
    expect(JSON.parse(after[0] as string)).toEqual({ [ids[0]]: '127.0.0.3', [ids[3]]: '127.0.0.3' });
    expect(after.slice(1)).toEqual([[200, null, '127.0.0.3'], [400, 'bad_session_id', null], [400, 'bad_session_id', null], [200, null, '127.0.0.3']]);
    const view = main.context.get<ProxySessionsView>(PROXY_SESSIONS_VIEW, { strict: false });
    expect((await view.session(user, ids[0]))?.lastUsed).toBeGreaterThanOrEqual(t0 + 500);

    // Decided once: the live decider (running again) and another replay add no fact, and answer the same.
    expect((await post(main, key)).status).toBe(400); // decided live: the limit of 2 is reached (0 and 3)
    await replayViews(p);
    expect(await sessionFacts(user)).toEqual([1, 1, 1, 1, 1]);
    expect(await readAll()).toEqual(after);
  });
});
