import {
  FRONTIER_BATCHES_LEASED, FRONTIER_DECIDED, FRONTIER_REQUESTS_ADDED, FRONTIER_TOPIC, frontierSlotKey, JOB_DATA_TOPIC, JOBS_DECIDED, JobsRequested, jobsRequestedType, ManualClock,
  PROXY_SESSION_CREATED, PROXY_SESSION_DECIDED, PROXY_SESSIONS_TOPIC, ProxySessionCreated, SequentialIds,
} from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { startProxyApp } from '../../apps/proxy/proxy.app';
import { keyStream, projectStream } from '../support/jobs-stream';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';
import { direct } from '../support/proxy-client';

/**
 * Time and ids are the injected CLOCK and IDS (docs/DESIGN.md, "Time and ids"): a test
 * that binds its own clock sees that time in the API's answers and the events' envelopes,
 * and moves it without sleeping.
 */
jest.setTimeout(120_000);

describe('the injected clock and ids', () => {
  const T0 = Date.parse('2031-05-04T03:02:01.000Z');
  const clock = new ManualClock(T0);
  const ids = new SequentialIds();
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ PROXY_PORT: '0', PROXY_EXITS: '127.0.0.2' }, { stamps: { clock, ids } });
  });
  afterAll(() => platform?.stop());

  it('/system/ts answers the clock\'s time, and moves when the test moves it', async () => {
    expect(await (await fetch(`${platform.storageUrl}/system/ts`)).text()).toBe(String(T0));
    clock.advance(90_000);
    expect(await (await fetch(`${platform.storageUrl}/system/ts`)).text()).toBe(String(T0 + 90_000));
  });

  it('stamps the events of a write with the clock\'s time and the ids\' ids', async () => {
    const key = await platform.createKey([7]);
    clock.set(T0 + 3_600_000);
    const res = await fetch(`${platform.storageUrl}/items/7/1/1`, { method: 'POST', headers: { authorization: basic(key) }, body: '{"a":1}\n' });
    expect(res.status).toBe(200);
    const events = [];
    for (let p = 0; p < platform.core.eventLog.partitionCount(JOB_DATA_TOPIC); p++) events.push(...(await platform.core.eventLog.read(JOB_DATA_TOPIC, p, 0, 100)));
    expect(events.length).toBeGreaterThan(0);
    for (const { event } of events) {
      expect(event.occurredAt).toBe(T0 + 3_600_000);
      expect(event.id).toMatch(/^00000000-0000-4000-8000-[0-9a-f]{12}$/);
    }
  });

  /** The ids SequentialIds gives: a user reads them in `crawlhub audit` (event, correlation, causation and request ids). */
  const SEQUENTIAL = /^00000000-0000-4000-8000-[0-9a-f]{12}$/;

  /** Each event stamped at `at` with sequential ids, its correlation and causation ids among them. */
  function expectStamped(events: LoggedEvent[], at: number): void {
    expect(events.length).toBeGreaterThan(0);
    for (const { event } of events) {
      expect([event.type, event.occurredAt]).toEqual([event.type, at]);
      expect(event.id).toMatch(SEQUENTIAL);
      expect(event.correlationId).toMatch(SEQUENTIAL);
      if (event.causationId !== null) expect(event.causationId).toMatch(SEQUENTIAL);
    }
  }

  it('stamps a pushed job\'s request and its decision with the clock and the ids: its pending_time is the clock\'s', async () => {
    const key = await platform.createKey([8]);
    clock.set(T0 + 7_200_000);
    const pushed = await fetch(`${platform.storageUrl}/jobq/8/push`, { method: 'POST', headers: { authorization: basic(key) }, body: JSON.stringify({ spider: 'clocked' }) });
    expect(pushed.status).toBe(200);
    const job = (await pushed.json()) as { key: string };
    const events = await projectStream(platform.core.eventLog, 8);
    expect(events.map((e) => e.event.type)).toEqual([jobsRequestedType('push'), JOBS_DECIDED]);
    expectStamped(events, T0 + 7_200_000);
    expect((events[0].event.data as JobsRequested).requestId).toMatch(SEQUENTIAL);
    const meta = (await (await fetch(`${platform.storageUrl}/jobs/${job.key}`, { headers: { authorization: basic(key) } })).json()) as Record<string, unknown>;
    expect(meta.pending_time).toBe(T0 + 7_200_000);
  });

  it('stamps a frontier batch\'s requests and decisions with the clock and the ids, and a lease runs out on the clock', async () => {
    const key = await platform.createKey([9]);
    const hcf = (path: string, init: RequestInit = {}) => fetch(`${platform.storageUrl}/hcf/9/f/s/a${path}`, { ...init, headers: { authorization: basic(key) } });
    clock.set(T0 + 10_800_000);
    expect(await (await hcf('', { method: 'POST', body: '{"fp":"u1"}\n{"fp":"u2"}' })).text()).toBe('{"newcount":2}');
    expect((await hcf('/q?mincount=1&lease=60')).status).toBe(200);
    const events = await keyStream(platform.core.eventLog, FRONTIER_TOPIC, frontierSlotKey(9, 'f', 'a'));
    expect(events.map((e) => e.event.type)).toEqual([FRONTIER_REQUESTS_ADDED, FRONTIER_DECIDED, FRONTIER_BATCHES_LEASED, FRONTIER_DECIDED]);
    expectStamped(events, T0 + 10_800_000);
    expect(events.map((e) => (e.event.data as { requestId: string }).requestId)).toEqual(Array(4).fill(expect.stringMatching(SEQUENTIAL)));
    // Leased for 60 s of the clock: hidden from plain reads until the clock passes them.
    const queued = async () => (await (await hcf('/q')).text()).split('\n').filter(Boolean).length;
    expect(await queued()).toBe(0);
    clock.advance(61_000);
    expect(await queued()).toBe(1);
  });

  it('stamps a proxy session\'s create and its decision with the clock and the ids, and idles it out on the clock', async () => {
    const proxy = await startProxyApp(platform.core, ['error']);
    try {
      const key = await platform.createKey([1]);
      const user = (await platform.access.authenticate(key))!.id;
      const sessions = (method = 'GET') => direct(proxy.port, '/sessions', { Authorization: basic(key) }, method);
      clock.set(T0 + 14_400_000);
      const created = await sessions('POST');
      expect(created.status).toBe(200);
      // Its id too comes from the ids (SequentialIds: predictable).
      expect(created.body).toMatch(/^10{9}\d{6}$/);
      const events = await keyStream(platform.core.eventLog, PROXY_SESSIONS_TOPIC, user);
      expect(events.map((e) => e.event.type)).toEqual([PROXY_SESSION_CREATED, PROXY_SESSION_DECIDED]);
      expectStamped(events, T0 + 14_400_000);
      expect((events[0].event.data as ProxySessionCreated).at).toBe(T0 + 14_400_000);
      expect(Object.keys(JSON.parse((await sessions()).body))).toEqual([created.body]);
      clock.advance(platform.core.config.proxySessions.idleMs + 1);
      expect(JSON.parse((await sessions()).body)).toEqual({});
    } finally {
      await proxy.close();
    }
  });
});
