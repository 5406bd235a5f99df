import { existsSync, mkdtempSync } from 'node:fs';
import { globalAgent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Core } from '@crawlhub/platform';
import { startProxyApp, StartedProxy } from '../../apps/proxy/proxy.app';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';
import { Answer, direct, viaProxy, viaTunnel } from '../support/proxy-client';
import { ProxyOrigin, startProxyOrigin } from '../support/proxy-origin';
import { freePort, MAIN, spawnPlatform, SpawnedPlatform } from '../support/spawn-platform';

jest.setTimeout(120_000);

const EXITS = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
const SESSION_ID = /^[1-9][0-9]{15}$/;

const remoteOf = (a: Answer) => (JSON.parse(a.body) as { remote: string }).remote;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The proxy port's /sessions routes with `Authorization: Basic <key>:`. */
const sessionsApi = (port: number, key: string | null, method: string, path = '/sessions') =>
  direct(port, path, key === null ? {} : { Authorization: basic(key) }, method);

describe('smart proxy: sessions', () => {
  let platform: TestPlatform;
  let origin: ProxyOrigin;
  let proxy: StartedProxy;
  let port: number;
  let key: string;
  let otherKey: string;
  const started: StartedProxy[] = [];

  /** Another proxy process on the same platform (the same log and views) with some settings changed. */
  async function proxyWith(env: Partial<Core['config']['proxySessions']>): Promise<number> {
    const config = platform.core.config;
    const p = await startProxyApp({ ...platform.core, config: { ...config, proxySessions: { ...config.proxySessions, ...env } } } as Core, ['error']);
    started.push(p);
    return p.port;
  }

  const get = (p: number, k: string, session?: string, path = '/whoami', headers: Record<string, string> = {}) =>
    viaProxy(p, `${origin.httpUrl}${path}`, { key: k, headers: session === undefined ? headers : { 'X-Proxy-Session': session, ...headers } });

  beforeAll(async () => {
    origin = await startProxyOrigin();
    platform = await startTestPlatform({
      PROXY_PORT: '0',
      ALLOW_PRIVATE_TARGETS: 'true',
      PROXY_EXITS: EXITS.join(','),
      PROXY_UPSTREAM_CA_FILE: origin.caFile,
      PROXY_STATIC_HOSTS: 'site.test=127.0.0.1',
      PROXY_BAN_RULES: JSON.stringify([{ status: [503] }]),
      PROXY_BAN_COOLDOWN_MS: '200',
      // Throttling is tested in proxy-core; here it would space each session's requests by 12 s.
      PROXY_THROTTLE_SPACING_MS: '0',
    });
    key = await platform.createKey([1]);
    otherKey = await platform.createKey([1]);
    proxy = await startProxyApp(platform.core, ['error']);
    port = proxy.port;
  }, 60_000);

  afterAll(async () => {
    for (const p of started) await p.close();
    await proxy?.close();
    await platform?.stop();
    await origin?.close();
    globalAgent.destroy();
  });

  beforeEach(() => {
    origin.banned.clear();
    origin.hits.length = 0;
  });

  it('creates a session by header: the id comes back under both prefixes, and 20 requests in it leave from its exit while others rotate', async () => {
    const first = await get(port, key, 'create');
    expect(first.status).toBe(200);
    const id = first.headers['x-proxy-session'] as string;
    expect(id).toMatch(SESSION_ID);
    expect(first.headers['x-crawlera-session']).toBe(id);
    const exit = remoteOf(first);
    expect(first.headers['x-proxy-slave']).toBe(exit);
    const pinned = await Promise.all(Array.from({ length: 20 }, () => get(port, key, id)));
    expect(pinned.map((a) => [a.status, remoteOf(a), a.headers['x-proxy-session'], a.headers['x-crawlera-session']])).toEqual(pinned.map(() => [200, exit, id, id]));
    const free: Answer[] = [];
    for (let i = 0; i < 6; i++) free.push(await get(port, key));
    expect(new Set(free.map(remoteOf))).toEqual(new Set(EXITS));
    expect(free.every((a) => a.headers['x-proxy-session'] === undefined)).toBe(true);
    // The Crawlera name of the header works the same.
    const crawlera = await viaProxy(port, `${origin.httpUrl}/whoami`, { key, headers: { 'X-Crawlera-Session': id } });
    expect([crawlera.status, remoteOf(crawlera)]).toEqual([200, exit]);
  });

  it('POST /sessions creates one (the id as the body), GET /sessions lists id -> exit, DELETE ends it: then bad_session_id', async () => {
    const created = await sessionsApi(port, key, 'POST');
    expect(created.status).toBe(200);
    const id = created.body;
    expect(id).toMatch(SESSION_ID);
    expect([created.headers['x-proxy-session'], created.headers['x-crawlera-session']]).toEqual([id, id]);
    const list = await sessionsApi(port, key, 'GET');
    expect([list.status, list.headers['content-type']]).toEqual([200, 'application/json']);
    const sessions = JSON.parse(list.body) as Record<string, string>;
    expect(EXITS).toContain(sessions[id]);
    const used = await get(port, key, id);
    expect([used.status, remoteOf(used)]).toEqual([200, sessions[id]]);

    const deleted = await sessionsApi(port, key, 'DELETE', `/sessions/${id}`);
    expect(deleted.status).toBe(204);
    const after = await get(port, key, id);
    expect([after.status, after.headers['x-proxy-error'], after.headers['x-crawlera-error'], after.body]).toEqual([400, 'bad_session_id', 'bad_session_id', 'Bad session ID\n']);
    expect(JSON.parse((await sessionsApi(port, key, 'GET')).body)).not.toHaveProperty(id);
    const again = await sessionsApi(port, key, 'DELETE', `/sessions/${id}`);
    expect([again.status, again.headers['x-proxy-error']]).toEqual([400, 'bad_session_id']);
  });

  it('/sessions needs a key (401 with WWW-Authenticate) and answers 405 to other methods', async () => {
    for (const k of [null, 'not-a-key']) {
      const r = await sessionsApi(port, k, 'GET');
      expect([r.status, r.headers['www-authenticate'], r.headers['x-proxy-error'], r.headers['x-crawlera-error']]).toEqual([401, 'Basic realm="crawlhub"', 'bad_proxy_auth', 'bad_proxy_auth']);
    }
    const viaProxyAuth = await direct(port, '/sessions', { 'Proxy-Authorization': basic(key) });
    expect(viaProxyAuth.status).toBe(200);
    const put = await sessionsApi(port, key, 'PUT');
    expect([put.status, put.headers['allow']]).toEqual([405, 'GET, POST']);
    const getOne = await sessionsApi(port, key, 'GET', '/sessions/123');
    expect([getOne.status, getOne.headers['allow']]).toEqual([405, 'DELETE']);
  });

  it('another key can neither use, nor list, nor delete a session', async () => {
    const id = (await sessionsApi(port, key, 'POST')).body;
    const used = await get(port, otherKey, id);
    expect([used.status, used.headers['x-proxy-error']]).toEqual([400, 'bad_session_id']);
    expect(JSON.parse((await sessionsApi(port, otherKey, 'GET')).body)).toEqual({});
    const deleted = await sessionsApi(port, otherKey, 'DELETE', `/sessions/${id}`);
    expect([deleted.status, deleted.headers['x-proxy-error']]).toEqual([400, 'bad_session_id']);
    expect((await get(port, key, id)).status).toBe(200);
  });

  it('a ban inside a session answers 503 banned after one try; with Max-Retries 2 it is tried 3 times, all on the session\'s exit', async () => {
    const created = await get(port, key, 'create');
    const id = created.headers['x-proxy-session'] as string;
    const exit = remoteOf(created);
    origin.banned.add(exit);
    origin.hits.length = 0;
    const once = await get(port, key, id, '/guarded');
    expect([once.status, once.headers['x-proxy-error'], once.headers['x-proxy-session']]).toEqual([503, 'banned', id]);
    expect(origin.hits.filter((h) => h.path === '/guarded').map((h) => h.remote)).toEqual([exit]);
    origin.hits.length = 0;
    const retried = await get(port, key, id, '/guarded', { 'X-Proxy-Max-Retries': '2' });
    expect([retried.status, retried.headers['x-proxy-error']]).toEqual([503, 'banned']);
    expect(origin.hits.filter((h) => h.path === '/guarded').map((h) => h.remote)).toEqual([exit, exit, exit]);
    // Without a session the same ban is retried on the other exits.
    origin.hits.length = 0;
    const free = await get(port, key, undefined, '/guarded');
    expect(free.status).toBe(200);
    expect(remoteOf(free)).not.toBe(exit);
  });

  it('works inside an intercepted HTTPS tunnel', async () => {
    const ca = (await direct(port, '/ca.crt', {})).body;
    const created = await viaTunnel(port, `site.test:${origin.httpsPort}`, '/whoami', { key, ca, headers: { 'X-Proxy-Session': 'create' } });
    const id = created.headers['x-proxy-session'] as string;
    expect([created.status, id]).toEqual([200, expect.stringMatching(SESSION_ID)]);
    for (let i = 0; i < 3; i++) {
      const r = await viaTunnel(port, `site.test:${origin.httpsPort}`, '/whoami', { key, ca, headers: { 'X-Proxy-Session': id } });
      expect([r.status, remoteOf(r), r.headers['x-proxy-session']]).toEqual([200, remoteOf(created), id]);
    }
  });

  it('a session expires after PROXY_SESSION_IDLE_MS without use; each use restarts the timer', async () => {
    const idle = await proxyWith({ idleMs: 1500, touchMs: 200 });
    const id = (await get(idle, key, 'create')).headers['x-proxy-session'] as string;
    for (let i = 0; i < 3; i++) {
      await sleep(800);
      expect((await get(idle, key, id)).status).toBe(200);
    }
    await sleep(2000);
    const expired = await get(idle, key, id);
    expect([expired.status, expired.headers['x-proxy-error']]).toEqual([400, 'bad_session_id']);
    expect(JSON.parse((await sessionsApi(idle, key, 'GET')).body)).not.toHaveProperty(id);
  });

  it('PROXY_SESSION_LIMIT=2: a third session answers 400 user_session_limit, by header and by POST; a delete makes room', async () => {
    const limited = await proxyWith({ limit: 2 });
    const mine = await platform.createKey([1]);
    const ids = [(await get(limited, mine, 'create')).headers['x-proxy-session'] as string, (await sessionsApi(limited, mine, 'POST')).body];
    expect(ids.every((id) => SESSION_ID.test(id))).toBe(true);
    const third = await get(limited, mine, 'create');
    expect([third.status, third.headers['x-proxy-error'], third.headers['x-crawlera-error'], third.body]).toEqual([400, 'user_session_limit', 'user_session_limit', 'Session limit exceeded\n']);
    const posted = await sessionsApi(limited, mine, 'POST');
    expect([posted.status, posted.headers['x-proxy-error']]).toEqual([400, 'user_session_limit']);
    expect(Object.keys(JSON.parse((await sessionsApi(limited, mine, 'GET')).body)).sort()).toEqual([...ids].sort());
    // Another key has its own limit.
    expect((await get(limited, otherKey, 'create')).status).toBe(200);
    expect((await sessionsApi(limited, mine, 'DELETE', `/sessions/${ids[0]}`)).status).toBe(204);
    expect((await get(limited, mine, 'create')).status).toBe(200);
  });
});

/**
 * Two proxy processes (the built platform) over one log and one view store; A also runs
 * the projector. A session made through one is served by the other.
 */
describe('smart proxy: sessions across two proxy processes', () => {
  const KEY = 'proxy-sessions-admin-key-01';
  let origin: ProxyOrigin;
  const processes: SpawnedPlatform[] = [];

  afterAll(async () => {
    for (const p of processes) await p.stop('SIGTERM', 10_000);
    await origin?.close();
    globalAgent.destroy();
  });

  it('a session created through A leaves from the same exit through B; deleted through B, A answers bad_session_id', async () => {
    expect(existsSync(MAIN)).toBe(true); // `npm run build` first (npm test does it)
    origin = await startProxyOrigin();
    const run = `sessions${Date.now().toString(36)}`;
    const env = {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'crawlhub-sessions-')),
      EVENT_LOG_NAMESPACE: `${run}-`,
      MONGODB_DATABASE: run,
      CRAWLHUB_ADMIN_KEY: KEY,
      HOST: '127.0.0.1',
      ALLOW_PRIVATE_TARGETS: 'true',
      PROXY_EXITS: EXITS.join(','),
      PROXY_THROTTLE_SPACING_MS: '0',
      LOG_LEVEL: 'warn',
    };
    const start = async (name: string, roles: string) => {
      const [proxyPort, statsPort] = [await freePort(), await freePort()];
      const p = await spawnPlatform({ env: { ...env, PROXY_PORT: String(proxyPort), STATS_PORT: String(statsPort) }, roles, name, startTimeoutMs: 60_000 });
      processes.push(p);
      return proxyPort;
    };
    const a = await start('proxy A', 'proxy,projector');
    const b = await start('proxy B', 'proxy');

    const created = await viaProxy(a, `${origin.httpUrl}/whoami`, { key: KEY, headers: { 'X-Proxy-Session': 'create' } });
    expect(created.status).toBe(200);
    const id = created.headers['x-proxy-session'] as string;
    const exit = remoteOf(created);
    for (let i = 0; i < 5; i++) {
      const through = await viaProxy(b, `${origin.httpUrl}/whoami`, { key: KEY, headers: { 'X-Proxy-Session': id } });
      expect([through.status, remoteOf(through), through.headers['x-proxy-session']]).toEqual([200, exit, id]);
    }
    expect(JSON.parse((await sessionsApi(b, KEY, 'GET')).body)).toEqual({ [id]: exit });

    expect((await sessionsApi(b, KEY, 'DELETE', `/sessions/${id}`)).status).toBe(204);
    const gone = await viaProxy(a, `${origin.httpUrl}/whoami`, { key: KEY, headers: { 'X-Proxy-Session': id } });
    expect([gone.status, gone.headers['x-proxy-error']]).toEqual([400, 'bad_session_id']);
  });
});
