import { gzipSync } from 'node:zlib';
import { basic, expectReplayKeepsReads, startTestPlatform, TestPlatform } from '../support/platform';

jest.setTimeout(60_000);

/** The activity part of the storage API, end to end through HTTP, on the lane's log and view store. */
describe('storage API: activity', () => {
  let p: TestPlatform;
  let auth: string;
  beforeAll(async () => {
    p = await startTestPlatform();
    auth = basic(p.adminKey);
  });
  afterAll(() => p?.stop());

  const url = (path: string) => `${p.storageUrl}${path}`;
  const post = (path: string, body: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(url(path), { method: 'POST', body, headers: { authorization: auth, ...headers } });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(url(path), { headers: { authorization: auth, ...headers } });
  const jl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const lines = async (res: Response) => (await res.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const filter = (f: unknown[]) => `filter=${encodeURIComponent(JSON.stringify(f))}`;

  it('stores one object or JSON lines, and reads them newest first', async () => {
    const one = await post('/activity/11', '{"event": "job:scheduled", "job": "11/1/1", "user": "alice"}');
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(await one.text()).toBe('');
    expect((await post('/activity/11/', jl([{ n: 1 }, { n: 2 }, { n: 3 }]))).status).toBe(200);
    const res = await get('/activity/11');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-jsonlines; charset=UTF-8');
    // Compact texts, each line ending in \n; the last one written comes first.
    expect(await res.text()).toBe('{"n":3}\n{"n":2}\n{"n":1}\n{"event":"job:scheduled","job":"11/1/1","user":"alice"}\n');
    expect(await (await get('/activity/11/')).text()).toBe('{"n":3}\n{"n":2}\n{"n":1}\n{"event":"job:scheduled","job":"11/1/1","user":"alice"}\n');
  });

  it('keeps compact texts as written and accepts a pretty-printed object and gzip', async () => {
    expect((await post('/activity/12', '{"z":1,"a":1.0,"big":12345678901234567890}\n')).status).toBe(200);
    expect((await post('/activity/12', JSON.stringify({ pretty: { x: [1, 2] }, b: 'é' }, null, 2))).status).toBe(200);
    expect((await post('/activity/12', gzipSync(jl([{ g: 1 }])), { 'content-encoding': 'gzip' })).status).toBe(200);
    expect(await (await get('/activity/12')).text()).toBe('{"g":1}\n{"pretty":{"x":[1,2]},"b":"é"}\n{"z":1,"a":1.0,"big":12345678901234567890}\n');
  });

  it('caps with count and appends _ts and _project last', async () => {
    await post('/activity/13', jl(Array.from({ length: 10 }, (_, i) => ({ i }))));
    expect((await lines(await get('/activity/13?count=3'))).map((m) => m.i)).toEqual([9, 8, 7]);
    expect(await lines(await get('/activity/13?count=0'))).toEqual([]);
    const [first] = await lines(await get('/activity/13?count=1&meta=_ts&meta=_project'));
    expect(Object.keys(first)).toEqual(['i', '_ts', '_project']);
    expect(first._project).toBe(13);
    expect(Math.abs(first._ts - Date.now())).toBeLessThan(60_000);
    const before = Date.now();
    await post('/activity/13', '{}');
    const [empty] = await lines(await get('/activity/13?count=1&meta=_ts'));
    expect(Object.keys(empty)).toEqual(['_ts']);
    expect(empty._ts).toBeGreaterThanOrEqual(before - 5);
  });

  it('filters like the storage reads, count applying to the matches', async () => {
    await post('/activity/14', jl([
      { event: 'job:started', job: '14/1/1' },
      { event: 'job:completed', job: '14/1/1' },
      { event: 'job:started', job: '14/1/2' },
      { event: 'job:cancelled', job: '14/1/2' },
      { event: 'job:started', job: '14/1/3' },
    ]));
    const jobs = async (q: string) => (await lines(await get(`/activity/14?${q}`))).map((m) => m.job);
    expect(await jobs(filter(['event', '=', ['job:started']]))).toEqual(['14/1/3', '14/1/2', '14/1/1']);
    expect(await jobs(`${filter(['event', '=', ['job:started']])}&count=2`)).toEqual(['14/1/3', '14/1/2']);
    expect(await jobs(`${filter(['event', 'contains', ['job:c']])}&${filter(['job', '=', ['14/1/2']])}`)).toEqual(['14/1/2']);
    expect((await get(`/activity/14?${filter(['event', '~', [1]])}`)).status).toBe(400);
  });

  it('serves the other result formats', async () => {
    await post('/activity/15', jl([{ a: 1, b: 'x,y' }, { a: 2 }]));
    expect(await (await get('/activity/15?format=json')).json()).toEqual([{ a: 2 }, { a: 1, b: 'x,y' }]);
    expect(await (await get('/activity/15?format=csv&fields=a,b')).text()).toBe('2,\r\n1,"x,y"\r\n');
    expect((await get('/activity/15?format=nope')).status).toBe(400);
  });

  it('reads several projects with p, pcount, count and meta=_project', async () => {
    await post('/activity/21', jl([{ m: '21a' }]));
    await post('/activity/22', jl([{ m: '22a' }, { m: '22b' }]));
    await post('/activity/21', jl([{ m: '21b' }, { m: '21c' }]));
    await post('/activity/23', jl([{ m: '23a' }]));
    const ms = async (q: string) => (await lines(await get(`/activity/projects?${q}`))).map((m) => m.m);
    expect(await ms('p=21&p=22')).toEqual(['21c', '21b', '22b', '22a', '21a']);
    expect(await ms('p=21&p=22&p=23&pcount=1')).toEqual(['23a', '21c', '22b']);
    expect(await ms('p=21&p=22&p=23&pcount=2&count=3')).toEqual(['23a', '21c', '21b']);
    expect(await ms('p=22&p=21&p=21&pcount=1')).toEqual(['21c', '22b']);
    expect(await ms(`p=21&p=22&${filter(['m', '>', ['21b']])}&pcount=1`)).toEqual(['21c', '22b']);
    const withMeta = await lines(await get('/activity/projects/?p=21&p=22&pcount=1&meta=_project'));
    expect(withMeta).toEqual([{ m: '21c', _project: 21 }, { m: '22b', _project: 22 }]);
    // The admin key may leave p out: every project.
    const everything = await lines(await get('/activity/projects?meta=_project'));
    expect(new Set(everything.map((m) => m._project))).toEqual(new Set([11, 12, 13, 14, 15, 21, 22, 23]));
  });

  it('needs a key, and a key sees only its projects', async () => {
    expect((await fetch(url('/activity/11'))).status).toBe(401);
    expect((await fetch(url('/activity/11'), { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await fetch(url('/activity/projects?p=11'))).status).toBe(401);
    expect((await fetch(url('/activity/11'), { headers: { authorization: basic('0'.repeat(32)) } })).status).toBe(401);
    const key = await p.createKey([31, 32]);
    const as = (path: string, init: RequestInit = {}) => fetch(url(path), { ...init, headers: { authorization: basic(key) } });
    expect((await as('/activity/31', { method: 'POST', body: '{"mine":31}' })).status).toBe(200);
    expect((await as('/activity/32', { method: 'POST', body: '{"mine":32}' })).status).toBe(200);
    expect(await lines(await as('/activity/31'))).toEqual([{ mine: 31 }]);
    const denied = await as('/activity/11');
    expect(denied.status).toBe(403);
    expect(await denied.text()).toBe('Forbidden\n');
    expect((await as('/activity/11', { method: 'POST', body: '{"x":1}' })).status).toBe(403);
    expect((await as('/activity/projects?p=31&p=11')).status).toBe(403);
    expect(await lines(await as('/activity/projects?p=31&p=32&meta=_project'))).toEqual([{ mine: 32, _project: 32 }, { mine: 31, _project: 31 }]);
    // Without p, a key reads the projects it is bound to.
    expect(await lines(await as('/activity/projects?meta=_project'))).toEqual([{ mine: 32, _project: 32 }, { mine: 31, _project: 31 }]);
    expect(await lines(await get('/activity/11?count=1'))).toEqual([{ n: 3 }]);
  });

  it('refuses malformed input with a 4xx naming the line, and stores none of it', async () => {
    await post('/activity/16', '{"keep":1}');
    const bad = await post('/activity/16', '{"ok":1}\n{"broken":\n{"ok":3}\n');
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^Error parsing data, line 2: invalid JSON/);
    const notObject = await post('/activity/16', '{"ok":1}\n\n[1,2]\n');
    expect(notObject.status).toBe(400);
    expect(await notObject.text()).toMatch(/line 3: an activity message must be a JSON object\n$/);
    expect((await post('/activity/16', '"just a string"')).status).toBe(400);
    expect((await post('/activity/16', '[{"a":1}]')).status).toBe(400);
    expect((await post('/activity/16', jl([{ ok: 1 }, { blob: 'x'.repeat(1024 * 1024 + 10) }]))).status).toBe(413);
    expect((await post('/activity/16', Buffer.from('not gzip'), { 'content-encoding': 'gzip' })).status).toBe(400);
    expect((await post('/activity/16', '{}', { 'content-encoding': 'br' })).status).toBe(415);
    expect((await post('/activity/x', '{}')).status).toBe(400);
    expect((await get('/activity/16?count=abc')).status).toBe(400);
    expect((await get('/activity/16?meta=_key')).status).toBe(400);
    expect((await get('/activity/projects?p=abc')).status).toBe(400);
    expect((await get('/activity/projects?p=16&pcount=-1')).status).toBe(400);
    // An empty body posts nothing.
    expect((await post('/activity/16', '')).status).toBe(200);
    expect(await lines(await get('/activity/16'))).toEqual([{ keep: 1 }]);
  });

  it('rebuilds identical answers from the log (replay)', async () => {
    const reads = [
      '/activity/11?meta=_ts',
      '/activity/12',
      '/activity/13?meta=_ts&meta=_project',
      '/activity/projects?meta=_ts&meta=_project',
      '/activity/projects?p=21&p=22&p=23&pcount=2&meta=_ts',
      '/activity/31',
    ];
    await expectReplayKeepsReads(p, get, reads);
  });
});
