import { gunzipSync, gzipSync } from 'node:zlib';
import { decodeMulti } from '@msgpack/msgpack';
import { basic, expectReplayKeepsReads, startTestPlatform, TestPlatform } from '../support/platform';

jest.setTimeout(60_000);

/** The storage API for job data, end to end through HTTP, on the lane's log and view store. */
describe('storage API: job data', () => {
  let p: TestPlatform;
  let auth: string;
  beforeAll(async () => {
    p = await startTestPlatform({ EVENT_CHUNK_BYTES: '65536' });
    auth = basic(p.adminKey);
  });
  afterAll(() => p?.stop());

  const url = (path: string) => `${p.storageUrl}${path}`;
  const post = (path: string, body: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(url(path), { method: 'POST', body, headers: { authorization: auth, ...headers } });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(url(path), { headers: { authorization: auth, ...headers } });
  const jl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const lines = async (res: Response) => (await res.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l));

  it('stores items and reads them back in order with keys and timestamps', async () => {
    const items = Array.from({ length: 25 }, (_, i) => ({ name: `item ${i}`, price: i * 1.5, tags: ['a', i] }));
    expect((await post('/items/1/2/3', jl(items))).status).toBe(200);
    const res = await get('/items/1/2/3?meta=_key&meta=_ts');
    expect(res.headers.get('content-type')).toBe('application/x-jsonlines; charset=UTF-8');
    const got = await lines(res);
    expect(got.map(({ _key, _ts, ...rest }) => rest)).toEqual(items);
    expect(got.map((r) => r._key)).toEqual(items.map((_, i) => `1/2/3/${i}`));
    expect(Object.keys(got[0]).slice(-2)).toEqual(['_key', '_ts']);
    expect(typeof got[0]._ts).toBe('number');
  });

  it('overwrites positions on a retried POST instead of duplicating, and keeps stats right', async () => {
    const batch = jl([{ x: 1 }, { x: 2 }, { x: 3 }]);
    for (let i = 0; i < 3; i++) expect((await post('/items/1/2/4?start=0', batch)).status).toBe(200);
    expect((await post('/items/1/2/4', jl([{ x: 4, y: 'new' }]), { 'content-range': 'items 3-/*' })).status).toBe(200);
    expect((await post('/items/1/2/4?start=1', jl([{ z: true }]))).status).toBe(200);
    expect(await lines(await get('/items/1/2/4'))).toEqual([{ x: 1 }, { z: true }, { x: 3 }, { x: 4, y: 'new' }]);
    const stats = await (await get('/items/1/2/4/stats')).json();
    expect(stats).toEqual({ counts: { x: 3, y: 1, z: 1 }, totals: { input_values: 4, input_bytes: 4 + 4 + 4 + 10 } });
  });

  it('appends when no start is given', async () => {
    await post('/items/1/2/5', jl([{ n: 0 }, { n: 1 }]));
    await post('/items/1/2/5', jl([{ n: 2 }]));
    expect((await lines(await get('/items/1/2/5?meta=_key'))).map((r) => r._key)).toEqual(['1/2/5/0', '1/2/5/1', '1/2/5/2']);
  });

  it('accepts gzip bodies and answers gzip when asked', async () => {
    const body = gzipSync(jl([{ g: 1 }, { g: 2 }]));
    expect((await post('/items/1/2/6', body, { 'content-encoding': 'gzip' })).status).toBe(200);
    const res = await fetch(url('/items/1/2/6'), { headers: { authorization: auth, 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await lines(res)).toEqual([{ g: 1 }, { g: 2 }]);
  });

  it('paginates with start, startafter, count and index, and reads records and fields', async () => {
    await post('/items/1/3/1', jl(Array.from({ length: 10 }, (_, i) => ({ i, sq: i * i }))));
    await post('/items/1/3/2', jl([{ i: 100 }]));
    const keys = async (q: string) => (await lines(await get(`/items/1/3/1?meta=_key&${q}`))).map((r) => r.i);
    expect(await keys('start=1/3/1/3&count=3')).toEqual([3, 4, 5]);
    expect(await keys('startafter=1/3/1/7')).toEqual([8, 9]);
    expect(await keys('index=5&index=2')).toEqual([2, 5]);
    expect(await lines(await get('/items/1/3/1/4'))).toEqual([{ i: 4, sq: 16 }]);
    expect(await lines(await get('/items/1/3/1/4/sq'))).toEqual([16]);
    expect(await lines(await get('/items/1/3/1/sq?count=3'))).toEqual([0, 1, 4]);
    expect((await get('/items/1/3/1/99')).status).toBe(404);
    expect((await lines(await get('/items/1/3?meta=_key'))).map((r) => r._key)).toEqual([...Array.from({ length: 10 }, (_, i) => `1/3/1/${i}`), '1/3/2/0']);
    expect((await lines(await get('/items/1/3?startafter=1/3/1/9'))).map((r) => r.i)).toEqual([100]);
    const empty = await get('/items/1/3/9');
    expect(empty.status).toBe(200);
    expect(await empty.text()).toBe('');
  });

  it('serves json, csv, xml, text and msgpack, and saveas', async () => {
    await post('/items/1/4/1', jl([{ a: 1, b: 'x,y' }, { a: 2 }]));
    expect(await (await get('/items/1/4/1?format=json')).json()).toEqual([{ a: 1, b: 'x,y' }, { a: 2 }]);
    expect(await (await get('/items/1/4/1', { accept: 'application/json' })).json()).toEqual([{ a: 1, b: 'x,y' }, { a: 2 }]);
    const csv = await get('/items/1/4/1?format=csv&fields=a,b&include_headers=1');
    expect(await csv.text()).toBe('a,b\r\n1,"x,y"\r\n2,\r\n');
    const xml = await (await get('/items/1/4/1?format=xml')).text();
    expect(xml).toContain('<member><name>b</name><value><string>x,y</string></value></member>');
    const mp = await get('/items/1/4/1', { accept: 'application/x-msgpack' });
    expect([...decodeMulti(new Uint8Array(await mp.arrayBuffer()))]).toEqual([{ a: 1, b: 'x,y' }, { a: 2 }]);
    const saved = await get('/items/1/4/1?saveas=out.jl');
    expect(saved.headers.get('content-disposition')).toBe('Attachment; filename=out.jl');
    expect((await get('/items/1/4/1?format=nope')).status).toBe(400);
    expect((await get('/items/1/4/1?format=csv')).status).toBe(400);
  });

  it('keeps logs and requests in schema order, drops null request fields, counts per level', async () => {
    await post('/logs/1/5/1', jl([{ message: 'hello', level: 20, time: 1000 }, { level: 30, message: 'warn', time: 1001 }, { message: 'x', level: 20, time: 1002 }]));
    expect(await (await get('/logs/1/5/1?meta=_key&count=1')).text()).toBe('{"_key":"1/5/1/0","time":1000,"level":20,"message":"hello"}\n');
    expect(await (await get('/logs/1/5/1/stats')).json()).toEqual({ counts: { '20': 2, '30': 1 }, totals: { input_values: 3, input_bytes: 6 + 5 + 2 } });
    await post('/requests/1/5/1', jl([{ url: 'http://a/', method: 'GET', status: 200, rs: 10, duration: 5, time: 7, parent: null, fp: null }]));
    expect(await (await get('/requests/1/5/1?meta=_key')).text()).toBe('{"_key":"1/5/1/0","time":7,"duration":5,"status":200,"method":"GET","rs":10,"url":"http://a/"}\n');
    const rs = (await (await get('/requests/1/5/1/stats')).json()) as { counts: unknown };
    expect(rs.counts).toEqual({ duration: 1, status: 1, method: 1, rs: 1, url: 1 });
    expect((await post('/logs/1/5/1', jl([{ message: 'no level' }]))).status).toBe(400);
  });

  it('filters reads with filter=[field, op, values], AND-combined, count applying to matches', async () => {
    await post('/logs/1/9/1', jl([10, 20, 30, 40, 30].map((level, i) => ({ message: i % 2 ? 'shortcut here' : 'plain', level, time: i }))));
    const levels = async (q: string) => (await lines(await get(`/logs/1/9/1?${q}`))).map((r) => r.level);
    expect(await levels(`filter=${encodeURIComponent('["level", ">=", [30]]')}`)).toEqual([30, 40, 30]);
    expect(await levels(`filter=${encodeURIComponent('["level", ">=", [30]]')}&filter=${encodeURIComponent('["message", "contains", ["shortcut"]]')}`)).toEqual([40]);
    expect(await levels(`filter=${encodeURIComponent('["level", "=", [10, 30]]')}&count=2`)).toEqual([10, 30]);
    expect((await get(`/logs/1/9/1?filter=${encodeURIComponent('["level", "~", [1]]')}`)).status).toBe(400);
  });

  it('stores samples, arrays starting with a timestamp', async () => {
    expect((await post('/samples/1/10/1?start=0', jl([[1000, 1, 2], [2000, 3.5]]))).status).toBe(200);
    expect(await (await get('/samples/1/10/1?meta=_key')).text()).toBe('[1000,1,2]\n[2000,3.5]\n');
    expect((await post('/samples/1/10/1', jl([{ not: 'an array' }]))).status).toBe(400);
  });

  it('refuses malformed bodies with a clear 4xx and writes nothing', async () => {
    await post('/items/1/6/1', jl([{ keep: 1 }]));
    const bad = await post('/items/1/6/1', '{"ok":1}\n{"broken":\n{"ok":3}\n');
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/line 2/);
    const big = await post('/items/1/6/1', jl([{ ok: 1 }, { blob: 'x'.repeat(1024 * 1024 + 10) }]));
    expect(big.status).toBe(413);
    expect((await post('/items/1/6/1', Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' })).status).toBe(400);
    expect((await post('/items/1/6/1?start=-1', jl([{ a: 1 }]))).status).toBe(400);
    expect((await post('/items/1/6/x', jl([{ a: 1 }]))).status).toBe(400);
    expect((await post('/items/1/6/1', jl([[1, 2]]))).status).toBe(400);
    expect((await get('/items/1/6/1?count=abc')).status).toBe(400);
    expect((await get('/items/1/6/1?start=2/1/1/1')).status).toBe(400);
    expect(await lines(await get('/items/1/6/1'))).toEqual([{ keep: 1 }]);
    expect(((await (await get('/items/1/6/1/stats')).json()) as { totals: { input_values: number } }).totals.input_values).toBe(1);
  });

  it('stages a large body and shows all of it or none of it', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({ i, pad: 'p'.repeat(100) }));
    const failing = jl(many) + '{"truncated": \n';
    expect((await post('/items/1/7/1', failing)).status).toBe(400);
    expect(await (await get('/items/1/7/1')).text()).toBe('');
    expect((await post('/items/1/7/1', jl(many))).status).toBe(200);
    const got = await lines(await get('/items/1/7/1'));
    expect(got).toHaveLength(5000);
    expect(got[4999].i).toBe(4999);
    expect(((await (await get('/items/1/7/1/stats')).json()) as { totals: { input_values: number } }).totals.input_values).toBe(5000);
  });

  it('stores compact lines as the bytes posted and reads them back byte for byte, in one event or staged', async () => {
    // Compact lines are kept as written (number spellings, escapes, characters of every UTF-8
    // length); a line with whitespace is stored compacted; a CRLF line too.
    const compact = ['{"price":1.0,"big":12345678901234567890,"e":1E3}', '{"name":"caf\u00e9 \\" \\\\","emoji":"😀 €","nested":{"a":[1,{"b":null}]}}'];
    const spaced = '{"a": 1, "b": [1, 2]}';
    const body = `${compact[0]}\n${spaced}\n${compact[1]}\r\n\n${compact[1]}\n`;
    const expected = `${compact[0]}\n{"a":1,"b":[1,2]}\n${compact[1]}\n${compact[1]}\n`;
    // Sent in pieces of 7 bytes, so multi-byte characters and lines are cut across the body's chunks.
    const bytes = Buffer.from(body);
    const pieces = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7));
    const streamed = new ReadableStream({ pull(c) { const next = pieces.shift(); if (next) c.enqueue(next); else c.close(); } });
    const res = await fetch(url('/items/1/11/1'), { method: 'POST', body: streamed, duplex: 'half', headers: { authorization: auth } } as RequestInit);
    expect(res.status).toBe(200);
    expect(Buffer.from(await (await get('/items/1/11/1')).arrayBuffer()).equals(Buffer.from(expected))).toBe(true);
    // A body of many events (EVENT_CHUNK_BYTES is 64 KB here): staged and committed, the same bytes back.
    const many = Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? `{"i":${i},"v":1.50,"s":"ü€😀${'x'.repeat(40)}"}` : `{"i": ${i}}`));
    expect((await post('/items/1/11/2', many.join('\n') + '\n')).status).toBe(200);
    const back = await (await get('/items/1/11/2')).text();
    expect(back).toBe(many.map((l) => (l.includes(' ') && !l.includes('"s"') ? l.replace(/ /g, '') : l)).join('\n') + '\n');
  });

  it('refuses a whole body for one malformed line among thousands, in the storage API\'s plain text, with nothing applied', async () => {
    await post('/items/1/12/1', jl([{ before: 1 }]));
    // Past the first event chunks (64 KB here), so the chunks before it are staged and must be dropped.
    const good = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ i, pad: 'q'.repeat(60) }));
    for (const bad of ['{"i": 2990, "broken"', '{"deep":' + '['.repeat(200) + ']'.repeat(200) + '}', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]).toString('latin1')]) {
      const lines = [...good.slice(0, 2990), bad, ...good.slice(2990)];
      const res = await post('/items/1/12/1', Buffer.from(lines.join('\n') + '\n', bad.includes('\u00ff') ? 'latin1' : 'utf8'));
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toMatch(/^Error parsing data, line 2991: /);
    }
    expect(await (await get('/items/1/12/1')).text()).toBe('{"before":1}\n');
    expect(((await (await get('/items/1/12/1/stats')).json()) as { totals: { input_values: number } }).totals.input_values).toBe(1);
  });

  it('answers a body refused early at once, without reading it whole, and the connection stays usable', async () => {
    // The bad line comes first in a body far larger than the socket buffers: the 400 must
    // come back although the client is still sending, and the rest must not break the
    // connection for the next request (the server drains what it refused).
    const good = Array.from({ length: 20000 }, (_, i) => JSON.stringify({ i, pad: 'q'.repeat(60) }));
    const body = ['{"broken"', ...good].join('\n') + '\n';
    const started = performance.now();
    const res = await post('/items/1/12/2', body);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^Error parsing data, line 1: /);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await post('/items/1/12/2', jl([{ after: 1 }]))).status).toBe(200);
    expect(await (await get('/items/1/12/2')).text()).toBe('{"after":1}\n');
  });

  it('merges job metadata, stores null, deletes fields and guards platform fields', async () => {
    const meta = '/jobs/1/8/1';
    expect((await post(meta, JSON.stringify({ close_reason: 'finished', foo: { a: 1 } }))).status).toBe(200);
    expect((await post(meta, JSON.stringify({ foo: null, bar: 2 }))).status).toBe(200);
    expect((await post(`${meta}/baz`, JSON.stringify('qux'))).status).toBe(200);
    const res = await get(meta);
    expect(await res.text()).toBe('{"close_reason": "finished", "foo": null, "bar": 2, "baz": "qux"}');
    expect(await (await get(`${meta}/bar`)).text()).toBe('2');
    expect(await (await get(`${meta}/missing`)).text()).toBe('null');
    expect((await fetch(url(`${meta}/bar`), { method: 'DELETE', headers: { authorization: auth } })).status).toBe(200);
    expect(await (await get(`${meta}/bar`)).text()).toBe('null');
    // A whole-object save (what the official client does) ignores platform fields...
    expect((await post(meta, JSON.stringify({ state: 'running', bar: 3 }))).status).toBe(200);
    expect(await (await get(`${meta}/state`)).text()).toBe('null');
    expect(await (await get(`${meta}/bar`)).text()).toBe('3');
    // ...and writing one explicitly is refused.
    const refused = await post(`${meta}/state`, JSON.stringify('running'));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/state/);
    expect((await fetch(url(`${meta}/project`), { method: 'DELETE', headers: { authorization: auth } })).status).toBe(400);
    expect((await post(meta, '[1,2]')).status).toBe(400);
    expect((await post(meta, '{bad')).status).toBe(400);
    expect((await get('/jobs/1')).status).toBe(400);
  });

  it('needs a key, and a key sees only its projects', async () => {
    expect((await fetch(url('/items/1/2/3'))).status).toBe(401);
    expect((await fetch(url('/items/1/2/3'), { headers: { authorization: basic('0'.repeat(32)) } })).status).toBe(401);
    const key = await p.createKey([42]);
    expect((await fetch(url(`/items/42/1/1?apikey=${key}`), { method: 'POST', body: jl([{ mine: true }]) })).status).toBe(200);
    expect(await lines(await fetch(url(`/items/42/1/1?apikey=${key}`)))).toEqual([{ mine: true }]);
    const other = await fetch(url('/items/1/2/3'), { headers: { authorization: basic(key) } });
    expect(other.status).toBe(403);
    expect(await other.text()).toBe('Forbidden\n');
    expect((await fetch(url('/system/ts'))).status).toBe(200);
  });

  it('rebuilds identical views from the log (replay)', async () => {
    const reads = ['/items/1/2?meta=_key&meta=_ts', '/items/1/2/4/stats', '/logs/1/5/1?meta=_key', '/requests/1/5/1/stats', '/jobs/1/8/1', '/items/1/7/1/stats', '/items/42/1/1'];
    await expectReplayKeepsReads(p, get, reads);
  });

  it('gunzips cleanly what the server gzips (large read)', async () => {
    const res = await fetch(url('/items/1/7/1?format=json'), { headers: { authorization: auth, 'accept-encoding': 'gzip' } });
    const raw = Buffer.from(await res.arrayBuffer());
    // fetch decodes gzip itself; the body must be a complete JSON array either way.
    const text = res.headers.get('content-encoding') === 'gzip' && raw[0] === 0x1f ? gunzipSync(raw).toString() : raw.toString();
    expect(JSON.parse(text)).toHaveLength(5000);
  });

  it('reads a job back byte for byte as jl and json, across pages bounded by bytes and by count, from any start', async () => {
    // 16 records of ~900 KB (pages of stored bytes stop at about 8 MB), then 6,000 small ones (pages of 5,000 records).
    const big = Array.from({ length: 16 }, (_, i) => JSON.stringify({ i, s: `é${'x'.repeat(900_000)}` }));
    const small = Array.from({ length: 6000 }, (_, i) => JSON.stringify({ i: 16 + i, name: `item "${i}"\tand, a comma` }));
    for (const batch of [big.slice(0, 8), big.slice(8), small]) expect((await post('/items/1/8/1', batch.join('\n') + '\n')).status).toBe(200);
    const all = [...big, ...small];
    expect(await (await get('/items/1/8/1')).text()).toBe(all.join('\n') + '\n');
    expect(await (await get('/items/1/8/1?format=json')).text()).toBe(`[${all.join(',')}]`);
    expect(await (await get('/items/1/8/1?start=1/8/1/15&count=5002&format=json')).text()).toBe(`[${all.slice(15, 5017).join(',')}]`);
    expect(await (await get('/items/1/8/1?startafter=1/8/1/5020')).text()).toBe(all.slice(5021).join('\n') + '\n');
    expect(await (await get('/items/1/8/1?start=1/8/2/0')).text()).toBe('');
    expect(await (await get('/items/1/8/1?start=1/8/2/0&format=json')).text()).toBe('[]');
  });
});

describe('storage API without a projector', () => {
  it('answers 503 with Retry-After (a client retries it) when the views do not catch up within the bound, and keeps the write', async () => {
    const p = await startTestPlatform({ READ_YOUR_WRITES_TIMEOUT_MS: '300', CRAWLHUB_ADMIN_KEY: 'admin-key-for-projector-down-test' }, { projector: false });
    const total = async () => (await p.core.eventLog.endOffsets('job-data').catch(() => [0])).reduce((a, b) => a + b, 0);
    try {
      const before = await total();
      const res = await fetch(`${p.storageUrl}/items/1/1/1`, { method: 'POST', body: '{"a":1}\n', headers: { authorization: basic(p.adminKey) } });
      expect([res.status, res.headers.get('retry-after')]).toEqual([503, '5']);
      expect(await res.text()).toMatch(/^Service Unavailable/);
      expect(await total()).toBe(before + 1);
    } finally {
      await p.stop();
    }
  });
});
