import { DynamicModule, INestApplication, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createServer, request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { keyIdOf } from '@crawlhub/access';
import { LogPosition } from '@crawlhub/eventlog';
import { ManualClock } from '@crawlhub/contracts';
import { Core, CoreModule } from '@crawlhub/platform';
import { binOf, decodeCursor, ProxyUsageRecorderModule, UsageRecorder, valueOf } from '@crawlhub/proxy-stats';
import { startProxyApp } from '../../apps/proxy/proxy.app';
import { startStatsApp } from '../../apps/proxy/stats.app';
import { basic, expectReplayKeepsReads, startTestPlatform, TestPlatform } from '../support/platform';

jest.setTimeout(120_000);

/** A proxy process's recorder, alone in a Nest context (as the proxy app hosts it). */
@Module({})
class RecorderHostModule {
  static with(core: Core, clock: ManualClock): DynamicModule {
    return { module: RecorderHostModule, imports: [CoreModule.with(core), ProxyUsageRecorderModule.register({ clock })] };
  }
}

const T0 = Date.parse('2018-12-17T15:30:00Z');
const M5 = 300_000;

describe('proxy usage statistics (GET /stats on the stats app)', () => {
  let platform: TestPlatform;
  let stats: INestApplication;
  let url: string;
  const proxies: INestApplicationContext[] = [];
  let alice: string;
  let bob: string;

  const startProxy = async (at: number) => {
    const clock = new ManualClock(at);
    const context = await NestFactory.createApplicationContext(RecorderHostModule.with(platform.core, clock), { logger: ['error'] });
    proxies.push(context);
    return { clock, context, recorder: context.get(UsageRecorder) };
  };
  const applied = async (positions: LogPosition[] | Promise<LogPosition[]>) =>
    expect(await platform.core.projections.waitFor(await positions, 20_000)).toBe(true);
  const get = (key: string | null, query: Record<string, string> = {}) =>
    fetch(`${url}/stats?${new URLSearchParams(query)}`, { headers: key ? { authorization: basic(key) } : {} });
  const json = async (key: string | null, query: Record<string, string> = {}) => {
    const res = await get(key, query);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    return (await res.json()) as { limit: number; after: string; results: Record<string, unknown>[] };
  };
  /** One request of `user` through a recorder: started, then finished `ms` later. */
  const request = (r: { clock: ManualClock; recorder: UsageRecorder }, user: string, outcome: 'clean' | 'failed' | 'ban', bytes: number, ms: number) => {
    r.recorder.started(user);
    r.recorder.finished({ user, outcome, bytes, timeMs: ms });
  };

  beforeAll(async () => {
    platform = await startTestPlatform({
      STATS_PORT: '0', PROXY_STATS_FLUSH_MS: '10000', PROXY_STATS_SAMPLE_MS: '1000',
      // For the last test, through the proxy itself: a loopback origin, no retry delays, no throttling.
      PROXY_PORT: '0', ALLOW_PRIVATE_TARGETS: 'true', PROXY_THROTTLE_SPACING_MS: '0',
    });
    // "now" of the stats API: one hour after T0, so the default range (7 days) holds T0.
    stats = await startStatsApp(platform.core, ['error'], { clock: new ManualClock(T0 + 3_600_000) });
    url = `http://127.0.0.1:${(stats.getHttpServer().address() as AddressInfo).port}`;
    alice = await platform.createKey([1]);
    bob = await platform.createKey([2]);
  });

  afterAll(async () => {
    for (const c of proxies) await c.close();
    await stats?.close();
    await platform?.stop();
  });

  it('accounts requests into 5-minute buckets: bans count as failed, p80 of times and concurrency, traffic summed', async () => {
    const p = await startProxy(T0 + 10_000);
    const a = keyIdOf(alice);
    // Three requests in flight together, then sampled (concurrency 3), then they end.
    p.recorder.started(a);
    p.recorder.started(a);
    p.recorder.started(a);
    p.clock.advance(1000); // second 11 of the bucket: peak 3
    p.recorder.finished({ user: a, outcome: 'clean', bytes: 1000, timeMs: 100 });
    p.recorder.finished({ user: a, outcome: 'clean', bytes: 2000, timeMs: 200 });
    p.recorder.finished({ user: a, outcome: 'failed', bytes: 10, timeMs: 3000 });
    p.clock.advance(1000); // second 12: peak 3 (all three were in flight when it began)
    request(p, a, 'ban', 0, 5000);
    request(p, a, 'clean', 500, 150);
    p.clock.advance(1000); // second 13: peak 1; seconds [3, 3, 1]: p80 3
    await applied(p.recorder.flush());
    const page = await json(alice, { groupby: 'max', start_date: '2018-12-17T15:00:00', end_date: '2018-12-17T16:00:00' });
    expect(page).toEqual({
      limit: 500,
      after: '',
      results: [{ time_gte: '2018-12-17T15:30:00+00:00', clean: 3, failed: 2, concurrency: 3, total_time: valueOf(binOf(3000)), traffic: 3510 }],
    });
    expect(Object.keys(page.results[0])).toEqual(['time_gte', 'clean', 'failed', 'concurrency', 'total_time', 'traffic']);
    // A key sees only its own usage.
    expect((await json(bob, { groupby: 'max' })).results).toEqual([]);
  });

  it('merges the partial aggregates of several proxy processes and flushes (timer and shutdown)', async () => {
    const b = keyIdOf(bob);
    const p1 = await startProxy(T0 + M5 + 1000);
    const p2 = await startProxy(T0 + M5 + 2000);
    for (let i = 0; i < 4; i++) request(p1, b, 'clean', 100, 10);
    for (let i = 0; i < 6; i++) request(p2, b, 'clean', 100, 1000);
    request(p2, b, 'failed', 1, 20);
    await applied(p1.recorder.flush());
    // The flush timer of p2: advancing its clock by PROXY_STATS_FLUSH_MS flushes on its own.
    p2.clock.advance(10_000);
    const want = { time_gte: '2018-12-17T15:35:00+00:00', clean: 10, failed: 1, total_time: valueOf(binOf(1000)), traffic: 1001 };
    const read = async () => (await json(bob, { groupby: 'max' })).results;
    for (let i = 0; i < 200 && (await read())[0]?.clean !== 10; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await read())[0]).toMatchObject(want);
    // What a process holds when it closes is flushed then.
    request(p1, b, 'clean', 9, 10);
    await proxies.splice(proxies.indexOf(p1.context), 1)[0].close();
    for (let i = 0; i < 200 && (await read())[0]?.clean !== 11; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await read())[0]).toMatchObject({ ...want, clean: 11, traffic: 1010 });
  });

  it('adds up the concurrency that several proxy processes see in the same second', async () => {
    const dave = await platform.createKey([4]);
    const d = keyIdOf(dave);
    const at = Date.parse('2019-02-01T10:00:00Z');
    const [p1, p2] = [await startProxy(at), await startProxy(at)];
    for (const p of [p1, p2]) {
      p.recorder.started(d);
      p.recorder.started(d);
      p.clock.advance(1000); // second 1 of the bucket: 2 in flight in each process
      p.recorder.finished({ user: d, outcome: 'clean', bytes: 1, timeMs: 1000 });
      p.recorder.finished({ user: d, outcome: 'clean', bytes: 1, timeMs: 1000 });
      await applied(p.recorder.flush());
    }
    const [entry] = (await json(dave, { groupby: 'max', start_date: '2019-02-01', end_date: '2019-02-02' })).results;
    expect(entry).toEqual({ time_gte: '2019-02-01T10:00:00+00:00', clean: 4, failed: 0, concurrency: 4, total_time: valueOf(binOf(1000)), traffic: 4 });
  });

  it('groups by hour, day, month, year, or not at all; the admin key reads every user or the ones it names', async () => {
    const p = await startProxy(T0 + 2 * 86_400_000 + 60_000); // two days later, 15:31
    request(p, keyIdOf(alice), 'clean', 7, 40);
    await applied(p.recorder.flush());
    const admin = platform.adminKey;
    const range = { start_date: '2018-12-01', end_date: '2018-12-31' };
    const times = async (query: Record<string, string>) => (await json(admin, { ...range, ...query })).results.map((r) => r.time_gte);
    expect(await times({ groupby: 'max' })).toEqual(['2018-12-17T15:30:00+00:00', '2018-12-17T15:35:00+00:00', '2018-12-19T15:30:00+00:00']);
    expect(await times({ groupby: 'hour' })).toEqual(['2018-12-17T15:00:00+00:00', '2018-12-19T15:00:00+00:00']);
    expect(await times({ groupby: 'day' })).toEqual(['2018-12-17T00:00:00+00:00', '2018-12-19T00:00:00+00:00']);
    expect(await times({ groupby: 'month' })).toEqual(['2018-12-01T00:00:00+00:00']);
    expect(await times({ groupby: 'year' })).toEqual(['2018-01-01T00:00:00+00:00']);
    const total = (await json(admin, range)).results;
    expect(total).toEqual([expect.objectContaining({ time_gte: '2018-12-01T00:00:00+00:00', clean: 15, failed: 3, traffic: 3510 + 1010 + 7 })]);
    const onlyAlice = (await json(admin, { ...range, users: keyIdOf(alice) })).results;
    expect(onlyAlice).toEqual([expect.objectContaining({ clean: 4, failed: 2, traffic: 3517 })]);
    expect((await json(admin, { ...range, users: `${keyIdOf(bob)},nobody` })).results).toEqual([expect.objectContaining({ clean: 11, failed: 1 })]);
    // Default range: the 7 days before "now" (T0 + 1 h): the later day is outside it.
    expect((await json(alice, { groupby: 'day' })).results.map((r) => r.time_gte)).toEqual(['2018-12-17T00:00:00+00:00']);
    // A key may name itself.
    expect((await json(alice, { ...range, users: keyIdOf(alice) })).results).toEqual(onlyAlice);
  });

  it('pages with limit and after; after is "" on the last page', async () => {
    const admin = platform.adminKey;
    const query = { groupby: 'max', start_date: '2018-12-01', end_date: '2019-01-01', limit: '1' };
    const seen: unknown[] = [];
    let after = '';
    let pages = 0;
    do {
      const page = await json(admin, after ? { ...query, after } : query);
      expect(page.limit).toBe(1);
      seen.push(...page.results.map((r) => r.time_gte));
      after = page.after;
      if (after) expect(decodeCursor(after)).toBe(Date.parse(String(page.results[0].time_gte)));
      pages++;
    } while (after && pages < 10);
    expect(seen).toEqual(['2018-12-17T15:30:00+00:00', '2018-12-17T15:35:00+00:00', '2018-12-19T15:30:00+00:00']);
    expect(pages).toBe(3);
    const two = await json(admin, { ...query, limit: '2' });
    expect(two.results).toHaveLength(2);
    const rest = await json(admin, { ...query, limit: '2', after: two.after });
    expect(rest).toEqual({ limit: 2, after: '', results: [expect.objectContaining({ time_gte: '2018-12-19T15:30:00+00:00' })] });
  });

  it('answers bad parameters 400, missing credentials 401 and other users 403, as JSON', async () => {
    const cases: [string | null, Record<string, string>, number, RegExp][] = [
      [alice, { start_date: 'yesterday' }, 400, /start_date/],
      [alice, { end_date: '2018-13-01' }, 400, /end_date/],
      [alice, { start_date: '2018-12-20', end_date: '2018-12-10' }, 400, /start_date is after end_date/],
      [alice, { groupby: 'week' }, 400, /groupby/],
      [alice, { limit: '0' }, 400, /limit/],
      [alice, { limit: 'ten' }, 400, /limit/],
      [alice, { after: 'garbage!' }, 400, /after/],
      [alice, { users: Array.from({ length: 1001 }, (_, i) => `u${i}`).join(',') }, 400, /users/],
      [alice, { users: keyIdOf(bob) }, 403, /own usage/],
      [null, {}, 401, /Unauthorized/],
      ['0123456789abcdef0123456789abcdef', {}, 401, /Unauthorized/],
    ];
    for (const [key, query, status, message] of cases) {
      const res = await get(key, query);
      expect([query, res.status]).toEqual([query, status]);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as { status: string; message: string };
      expect(body.status).toBe('error');
      expect(body.message).toMatch(message);
    }
  });

  it('answers at /stats/ too (the original URL), and takes the key as ?apikey=', async () => {
    const query = new URLSearchParams({ groupby: 'max', start_date: '2018-12-17', end_date: '2018-12-18' });
    const slash = await fetch(`${url}/stats/?${query}`, { headers: { authorization: basic(alice) } });
    expect(slash.status).toBe(200);
    const viaParam = await fetch(`${url}/stats?${query}&apikey=${alice}`);
    expect(viaParam.status).toBe(200);
    expect(await viaParam.json()).toEqual(await slash.json());
  });

  it('rebuilds the same answers from the log (replay)', async () => {
    const admin = platform.adminKey;
    const range = { start_date: '2018-12-01', end_date: '2019-01-01' };
    await expectReplayKeepsReads(platform, (q: Record<string, string>) => get(admin, { ...range, ...q }), [{ groupby: 'max' }, { groupby: 'day' }, {}], { longerThan: 40 });
  });

  it('counts what goes through the proxy itself (the proxy app binds the recorder)', async () => {
    const carol = await platform.createKey([3]);
    const origin = createServer((req, res) => {
      res.statusCode = req.url === '/blocked' ? 503 : 200;
      res.end(req.url === '/blocked' ? 'blocked' : 'hello, world');
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    const clock = new ManualClock(Date.parse('2019-01-16T15:30:00Z'));
    const proxy = await startProxyApp(platform.core, ['error'], { clock });
    const via = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: proxy.port, path: `${target}${path}`, headers: { 'proxy-authorization': basic(carol), 'x-proxy-max-retries': '0' } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      expect(await Promise.all([via('/a'), via('/b'), via('/c')])).toEqual([200, 200, 200]);
      expect(await via('/blocked')).toBe(503); // a ban by the default rules
      clock.advance(1000); // one concurrency sample
    } finally {
      await proxy.close(); // flushes
      origin.close();
    }
    const query = { groupby: 'day', start_date: '2019-01-16', end_date: '2019-01-17' };
    const read = async () => (await json(carol, query)).results;
    for (let i = 0; i < 200 && (await read()).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    const [day] = await read();
    expect(day).toMatchObject({ time_gte: '2019-01-16T00:00:00+00:00', clean: 3, failed: 1 });
    expect(day.traffic).toBeGreaterThanOrEqual(3 * 'hello, world'.length); // the bodies (docs/proxy.md: request + response body)
    expect(day.concurrency).toBeGreaterThanOrEqual(1);
    expect(day.total_time).toBeGreaterThanOrEqual(0);
  });
});
