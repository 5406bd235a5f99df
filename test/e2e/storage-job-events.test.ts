import { JobFeeds } from '@crawlhub/storage';
import { EventStreamClient, openEventStream } from '../support/event-stream';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';

jest.setTimeout(60_000);

/**
 * The live streams of a job's records (Server-Sent Events on the storage API), end to
 * end through HTTP on the lane's log and view store: what a console or a script tailing
 * a running job sees.
 */
describe('storage API: job event streams', () => {
  let p: TestPlatform;
  let auth: string;
  const streams: EventStreamClient[] = [];
  beforeAll(async () => {
    p = await startTestPlatform({ STREAM_KEEPALIVE_MS: '300' });
    auth = basic(p.adminKey);
  });
  afterEach(() => {
    for (const s of streams.splice(0)) s.close();
  });
  afterAll(() => p?.stop());

  const storage = (path: string, init: RequestInit = {}) => fetch(`${p.storageUrl}${path}`, { ...init, headers: { authorization: auth, ...(init.headers ?? {}) } });
  const jl = async (res: Response) => (await res.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const post = async (path: string, records: unknown[]) => {
    const res = await storage(path, { method: 'POST', body: records.map((r) => JSON.stringify(r)).join('\n') + '\n' });
    expect(res.status).toBe(200);
  };
  const logLine = (i: number) => ({ time: 1_700_000_000_000 + i, level: 20, message: `line ${i}` });
  /** A job of `project` made running through JobQ, as a runner would. */
  const runningJob = async (project: number): Promise<string> => {
    await storage(`/jobq/${project}/push`, { method: 'POST', body: JSON.stringify({ spider: 'live' }) });
    const [job] = await jl(await storage(`/jobq/${project}/startjob`, { method: 'POST' }));
    return job.key as string;
  };
  const finish = (project: number, key: string) =>
    storage(`/jobq/${project}/update`, { method: 'POST', body: JSON.stringify({ key, state: 'finished', close_reason: 'finished' }) });
  const open = async (path: string, headers: Record<string, string> = { authorization: auth }) => {
    const s = await openEventStream(`${p.storageUrl}${path}`, headers);
    streams.push(s);
    return s;
  };
  const records = (s: EventStreamClient, event: string) => s.events.filter((e) => e.event === event);
  const feeds = () => p.storageApp.get(JobFeeds);

  it('sends the stored records with their index as id and their _key, the state, then new records within a second', async () => {
    const key = await runningJob(101);
    await post(`/logs/${key}`, [0, 1, 2].map(logLine));
    const s = await open(`/logs/${key}/events`);
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toBe('text/event-stream; charset=UTF-8');
    await s.next((e) => e.event === 'log' && e.id === '2');
    const first = s.events[0];
    expect(first.event).toBe('state');
    expect(JSON.parse(first.data)).toMatchObject({ state: 'running', spider: 'live' });
    // The same objects as the JSON read with meta=_key.
    const stored = (await (await storage(`/logs/${key}?format=json&meta=_key`)).json()) as { _key: string }[];
    expect(records(s, 'log').map((e) => JSON.parse(e.data))).toEqual(stored);
    expect(records(s, 'log').map((e) => e.id)).toEqual(['0', '1', '2']);
    expect(stored[0]._key).toBe(`${key}/0`);

    // Tail latency: from the moment a write is sent to its arrival on the stream.
    const lags: number[] = [];
    for (let i = 3; i < 8; i++) {
      const sent = Date.now();
      const arrived = s.next((e) => e.event === 'log' && e.id === String(i), 5000);
      await post(`/logs/${key}`, [logLine(i)]);
      lags.push((await arrived).at - sent);
    }
    expect(Math.max(...lags)).toBeLessThan(1000);
    expect(records(s, 'log').map((e) => e.id)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);

    // Items and requests stream the same way, each under its own event name.
    await post(`/items/${key}`, [{ name: 'a' }, { name: 'b', price: 1.5 }]);
    await post(`/requests/${key}`, [{ time: 1, method: 'GET', url: 'http://127.0.0.1/', status: 200, duration: 5, rs: 10 }]);
    const items = await open(`/items/${key}/events`);
    expect(JSON.parse((await items.next((e) => e.event === 'item' && e.id === '1')).data)).toEqual({ name: 'b', price: 1.5, _key: `${key}/1` });
    const requests = await open(`/requests/${key}/events`);
    expect(JSON.parse((await requests.next((e) => e.event === 'request')).data)).toMatchObject({ _key: `${key}/0`, url: 'http://127.0.0.1/' });
  });

  it('resumes after Last-Event-ID (or ?after=, or at ?start=): nothing lost, nothing repeated', async () => {
    const key = await runningJob(102);
    await post(`/logs/${key}`, [0, 1, 2, 3].map(logLine));
    const first = await open(`/logs/${key}/events`);
    await first.next((e) => e.id === '3');
    first.close();
    // Written while nobody listens.
    await post(`/logs/${key}`, [4, 5].map(logLine));
    const again = await open(`/logs/${key}/events?after=0`, { authorization: auth, 'last-event-id': '3' });
    await again.next((e) => e.id === '5');
    await post(`/logs/${key}`, [logLine(6)]);
    await again.next((e) => e.id === '6');
    const seen = [...records(first, 'log'), ...records(again, 'log')];
    expect(seen.map((e) => e.id)).toEqual(['0', '1', '2', '3', '4', '5', '6']);
    expect(seen.map((e) => JSON.parse(e.data).message)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `line ${i}`));

    const after = await open(`/logs/${key}/events?after=4`);
    await after.next((e) => e.id === '6');
    expect(records(after, 'log').map((e) => e.id)).toEqual(['5', '6']);
    const start = await open(`/logs/${key}/events?start=${key}/5`);
    await start.next((e) => e.id === '6');
    expect(records(start, 'log').map((e) => e.id)).toEqual(['5', '6']);
    const bad = await storage(`/logs/${key}/events`, { headers: { 'last-event-id': 'x' } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^Invalid Last-Event-ID: "x"/);
  });

  it('sends the finish as a state change, then end once every record is sent, and closes', async () => {
    const key = await runningJob(103);
    const s = await open(`/items/${key}/events`);
    await s.next((e) => e.event === 'state');
    await post(`/items/${key}`, [{ n: 1 }, { n: 2 }]);
    expect((await finish(103, key)).status).toBe(200);
    const end = await s.next((e) => e.event === 'end', 5000);
    await s.ended;
    const state = records(s, 'state');
    expect(JSON.parse(state[state.length - 1].data)).toMatchObject({ state: 'finished', close_reason: 'finished' });
    expect(records(s, 'item').map((e) => e.id)).toEqual(['0', '1']);
    expect(s.events[s.events.length - 1]).toBe(end);
    // A finished job's stream sends what is stored and ends at once.
    const late = await open(`/items/${key}/events?after=0`);
    await late.ended;
    expect(late.events.map((e) => [e.event, e.id])).toEqual([['state', undefined], ['item', '1'], ['end', undefined]]);
  });

  it('answers like the storage API to a key of another project, no key, and an unknown job', async () => {
    const key = await runningJob(104);
    const other = await p.createKey([105]);
    const refused = await storage(`/logs/${key}/events`, { headers: { authorization: basic(other) } });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe('Forbidden\n');
    expect((await fetch(`${p.storageUrl}/logs/${key}/events`)).status).toBe(401);
    const unknown = await storage('/logs/104/9/9/events');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^text\/plain/);
    // The project's own key streams its job.
    const own = await open(`/logs/${key}/events`, { authorization: basic(await p.createKey([104])) });
    expect((await own.next((e) => e.event === 'state')).event).toBe('state');
  });

  it('shares one watcher per job between many streams, keeps writers fast, and frees everything on disconnect', async () => {
    const busy = await runningJob(106);
    const quiet = await runningJob(107);
    const before = feeds().usage();
    const many = await Promise.all(Array.from({ length: 40 }, () => open(`/logs/${busy}/events`)));
    const few = await Promise.all(Array.from({ length: 5 }, () => open(`/logs/${quiet}/events`)));
    await Promise.all([...many, ...few].map((s) => s.next((e) => e.event === 'state')));
    expect(feeds().usage()).toEqual({ jobs: before.jobs + 2, streams: before.streams + 45 });
    const sent = Date.now();
    await post(`/logs/${busy}`, [logLine(0)]);
    const written = Date.now() - sent;
    const arrivals = await Promise.all(many.map((s) => s.next((e) => e.event === 'log')));
    expect(Math.max(...arrivals.map((e) => e.at)) - sent).toBeLessThan(1000);
    expect(written).toBeLessThan(1000);
    // An idle stream still hears from the server (keepalive comments).
    await few[0].next(() => false, 700).catch(() => undefined);
    expect(few[0].comments).toContain('keepalive');

    for (const s of [...many, ...few]) s.close();
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && feeds().usage().streams > before.streams) await new Promise((r) => setTimeout(r, 50));
    expect(feeds().usage()).toEqual(before);
  });
});
