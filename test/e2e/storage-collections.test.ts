import { gzipSync } from 'node:zlib';
import { decodeMulti } from '@msgpack/msgpack';
import { basic, expectReplayKeepsReads, startTestPlatform, TestPlatform } from '../support/platform';

jest.setTimeout(90_000);

/** Key-value collections of the storage API, end to end through HTTP, on the lane's log and view store. */
describe('storage API: collections', () => {
  let p: TestPlatform;
  let auth: string;
  beforeAll(async () => {
    p = await startTestPlatform({ EVENT_CHUNK_BYTES: '65536', COLLECTION_EXPIRY_SECONDS: '2', COLLECTION_SCAN_BATCH: '5', COLLECTION_VERSIONS: '3' });
    auth = basic(p.adminKey);
  });
  afterAll(() => p?.stop());

  const url = (path: string) => `${p.storageUrl}${path}`;
  const req = (method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(url(path), { method, body, headers: { authorization: auth, ...headers } });
  const post = (path: string, body: string | Buffer, headers: Record<string, string> = {}) => req('POST', path, body, headers);
  const get = (path: string, headers: Record<string, string> = {}) => req('GET', path, undefined, headers);
  const jl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const lines = async (res: Response) => (await res.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const keysOf = async (path: string) => (await lines(await get(path))).map((r) => r._key);
  const enc = encodeURIComponent;

  it('writes records and scans them in byte order of their keys, without _key unless meta asks', async () => {
    const records = Array.from({ length: 20 }, (_, i) => ({ _key: `my_key_${i}`, counter: i, nested: { b: 1, a: [i] } }));
    const res = await post('/collections/1/s/scan_test', jl([...records].reverse()));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(await res.text()).toBe('');
    const plain = await get('/collections/1/s/scan_test');
    expect(plain.headers.get('content-type')).toBe('application/x-jsonlines; charset=UTF-8');
    const text = await plain.text();
    expect(text.endsWith('\n')).toBe(true);
    const sorted = records.map((r) => r._key).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(sorted.slice(0, 4)).toEqual(['my_key_0', 'my_key_1', 'my_key_10', 'my_key_11']);
    expect(text.split('\n').filter(Boolean)[0]).toBe('{"counter":0,"nested":{"b":1,"a":[0]}}');
    const withMeta = await lines(await get('/collections/1/s/scan_test?meta=_key&meta=_ts'));
    expect(withMeta.map((r) => r._key)).toEqual([...records.map((r) => r._key)].sort());
    expect(Object.keys(withMeta[0])).toEqual(['counter', 'nested', '_key', '_ts']);
    expect(Math.abs(withMeta[0]._ts - Date.now())).toBeLessThan(60_000);
    expect(new Set(withMeta.map((r) => r._ts)).size).toBe(1);
    expect(await (await get('/collections/1/s/scan_test?meta=_key&nodata=1&count=2')).text()).toBe('{"_key":"my_key_0"}\n{"_key":"my_key_1"}\n');
    const empty = await get('/collections/1/s/never_written');
    expect(empty.status).toBe(200);
    expect(await empty.text()).toBe('');
  });

  it('orders keys by UTF-8 bytes: upper case before lower case, ASCII before accents', async () => {
    await post('/collections/1/s/bytes', jl(['é', 'a', 'B', 'ab', 'a b', '~', '\u00ff', '\u4e2d'].map((k) => ({ _key: k }))));
    expect(await keysOf('/collections/1/s/bytes?meta=_key')).toEqual(['B', 'a', 'a b', 'ab', '~', '\u00e9', '\u00ff', '\u4e2d']);
  });

  it('reads, overwrites and deletes single records; keys may hold an encoded /', async () => {
    await post('/collections/1/s/single', jl([{ _key: 'a/b', value: 'v1', other: 2 }, { _key: 'n', value: { x: [1, 2] } }, { _key: 'novalue', x: 1 }]));
    const one = await get(`/collections/1/s/single/${enc('a/b')}`);
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toBe('application/x-jsonlines; charset=UTF-8');
    expect(await one.text()).toBe('{"value":"v1","other":2}\n');
    expect(await (await get(`/collections/1/s/single/${enc('a/b')}?meta=_key`)).text()).toBe('{"value":"v1","other":2,"_key":"a/b"}\n');
    const mp = await get(`/collections/1/s/single/${enc('a/b')}`, { accept: 'application/x-msgpack' });
    expect([...decodeMulti(new Uint8Array(await mp.arrayBuffer()))]).toEqual([{ value: 'v1', other: 2 }]);
    const value = await get(`/collections/1/s/single/${enc('a/b')}/value`);
    expect(await value.text()).toBe('v1');
    expect(value.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(await (await get('/collections/1/s/single/n/value')).text()).toBe('{"x":[1,2]}');
    for (const missing of ['/collections/1/s/single/nope', '/collections/1/s/single/nope/value', '/collections/1/s/single/novalue/value']) {
      const res = await get(missing);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBeNull();
      expect(await res.text()).toBe('Not Found\n');
    }
    expect((await post(`/collections/1/s/single/${enc('a/b')}`, JSON.stringify({ value: 'v2', _key: 'ignored' }))).status).toBe(200);
    expect(await (await get(`/collections/1/s/single/${enc('a/b')}?meta=_key`)).text()).toBe('{"value":"v2","_key":"a/b"}\n');
    expect((await req('DELETE', `/collections/1/s/single/${enc('a/b')}`)).status).toBe(200);
    expect((await get(`/collections/1/s/single/${enc('a/b')}`)).status).toBe(404);
    const again = await req('DELETE', '/collections/1/s/single/never-there');
    expect(again.status).toBe(200);
  });

  it('selects by key, prefix, prefixcount, start, startafter, count, filter and time', async () => {
    const base = '/collections/1/s/select?meta=_key';
    const t0 = Date.now();
    await post('/collections/1/s/select', jl(Array.from({ length: 20 }, (_, i) => ({ _key: `post_scan_test${i}`, counter: i }))));
    await new Promise((r) => setTimeout(r, 30));
    const t1 = Date.now();
    await post('/collections/1/s/select', jl([{ _key: 'zz_late', counter: 100 }]));
    expect(await keysOf(`${base}&key=post_scan_test3&key=missing&key=post_scan_test1`)).toEqual(['post_scan_test1', 'post_scan_test3']);
    expect(await keysOf(`${base}&prefix=post_scan_test1`)).toEqual(['post_scan_test1', ...Array.from({ length: 10 }, (_, i) => `post_scan_test1${i}`)]);
    expect(await keysOf(`${base}&prefix=zz&prefix=post_scan_test2`)).toEqual(['post_scan_test2', 'zz_late']);
    expect(await keysOf(`${base}&prefix=post_scan_test1&prefix=post_scan_test2&prefixcount=2`)).toEqual(['post_scan_test1', 'post_scan_test10', 'post_scan_test2']);
    expect(await keysOf(`${base}&start=post_scan_test7&count=3`)).toEqual(['post_scan_test7', 'post_scan_test8', 'post_scan_test9']);
    expect(await keysOf(`${base}&startafter=post_scan_test8`)).toEqual(['post_scan_test9', 'zz_late']);
    const filter = enc(JSON.stringify(['counter', '>', [5]]));
    const hits = await lines(await get(`${base}&prefix=post_scan_test1&filter=${filter}`));
    expect(hits.map((r) => r.counter)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect((await lines(await get(`${base}&filter=${filter}&count=2`))).map((r) => r.counter)).toEqual([10, 11]);
    expect(await keysOf(`${base}&startts=${t1}`)).toEqual(['zz_late']);
    expect((await keysOf(`${base}&endts=${t1 - 1}&startts=${t0 - 1000}`)).length).toBe(20);
    expect((await get(`${base}&filter=${enc('["counter","~",[1]]')}`)).status).toBe(400);
    expect((await get(`${base}&count=x`)).status).toBe(400);
    expect((await get(`${base}&meta=_other`)).status).toBe(400);
  });

  it('serves every result format, gzip and saveas as items do', async () => {
    await post('/collections/1/s/formats', jl([{ _key: 'k1', a: 1, b: 'x,y' }, { _key: 'k2', a: 2 }]));
    expect(await (await get('/collections/1/s/formats?format=json')).json()).toEqual([{ a: 1, b: 'x,y' }, { a: 2 }]);
    expect(await (await get('/collections/1/s/formats?format=csv&fields=_key,a,b&include_headers=1&meta=_key')).text()).toBe('_key,a,b\r\nk1,1,"x,y"\r\nk2,2,\r\n');
    expect(await (await get('/collections/1/s/formats?format=xml')).text()).toContain('<member><name>b</name><value><string>x,y</string></value></member>');
    const mp = await get('/collections/1/s/formats?meta=_key', { accept: 'application/x-msgpack' });
    expect([...decodeMulti(new Uint8Array(await mp.arrayBuffer()))]).toEqual([{ a: 1, b: 'x,y', _key: 'k1' }, { a: 2, _key: 'k2' }]);
    const gz = await get('/collections/1/s/formats', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await lines(gz)).toEqual([{ a: 1, b: 'x,y' }, { a: 2 }]);
    expect((await get('/collections/1/s/formats?saveas=c.jl')).headers.get('content-disposition')).toBe('Attachment; filename=c.jl');
    expect((await get('/collections/1/s/formats?format=nope')).status).toBe(400);
    // gzip bodies, as the Python batch writer sends them (with ?start=, ignored)
    expect((await post('/collections/1/s/formats?start=0', gzipSync(jl([{ _key: 'k3', a: 3 }])), { 'content-encoding': 'gzip' })).status).toBe(200);
    expect(await keysOf('/collections/1/s/formats?meta=_key')).toEqual(['k1', 'k2', 'k3']);
  });

  it('counts with a scan budget: nextstart until the end, the sums add up', async () => {
    const res = await get('/collections/1/s/scan_test/count?prefix=my_key_1');
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    // 11 keys under the prefix, a budget of 5 records per call
    expect(await res.text()).toBe('{"count":5,"scanned":5,"nextstart":"my_key_14"}');
    let count = 0;
    let scanned = 0;
    const starts: string[] = [];
    let start: string | undefined;
    for (;;) {
      const body = (await (await get(`/collections/1/s/scan_test/count?prefix=my_key_1${start ? `&start=${start}` : ''}`)).json()) as { count: number; scanned: number; nextstart?: string };
      count += body.count;
      scanned += body.scanned;
      if (!body.nextstart) break;
      starts.push((start = body.nextstart));
    }
    expect({ count, scanned, starts }).toEqual({ count: 11, scanned: 11, starts: ['my_key_14', 'my_key_19'] });
    const filtered = (await (await get(`/collections/1/s/scan_test/count?filter=${enc('["counter",">=",[18]]')}`)).json()) as Record<string, unknown>;
    expect(filtered).toEqual({ count: 0, scanned: 5, nextstart: 'my_key_13' });
    expect(await (await get('/collections/1/s/never_written/count')).text()).toBe('{"count":0,"scanned":0}');
    expect(await (await get('/collections/1/s/scan_test/count?key=my_key_3&key=my_key_4&key=nope')).text()).toBe('{"count":2,"scanned":2}');
  });

  it('deletes by filter in batches (nextstart), by key list, and everything without filters', async () => {
    await post('/collections/1/s/deletes', jl(Array.from({ length: 12 }, (_, i) => ({ _key: `d${String(i).padStart(2, '0')}`, even: i % 2 === 0 }))));
    const first = await req('DELETE', `/collections/1/s/deletes?filter=${enc('["even","=",[true]]')}`);
    expect(first.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(await first.text()).toBe('{"deleted":3,"nextstart":"d05"}');
    let start = 'd05';
    let deleted = 3;
    for (;;) {
      const body = (await (await req('DELETE', `/collections/1/s/deletes?start=${start}&filter=${enc('["even","=",[true]]')}`)).json()) as { deleted: number; nextstart?: string };
      deleted += body.deleted;
      if (!body.nextstart) break;
      start = body.nextstart;
    }
    expect(deleted).toBe(6);
    expect(await keysOf('/collections/1/s/deletes?meta=_key')).toEqual(['d01', 'd03', 'd05', 'd07', 'd09', 'd11']);
    expect((await post('/collections/1/s/deletes/deleted', '"d01"\n["d03","d05"]\n"never"\n')).status).toBe(200);
    expect(await keysOf('/collections/1/s/deletes?meta=_key')).toEqual(['d07', 'd09', 'd11']);
    expect((await post('/collections/1/s/deletes/deleted', '"d07"\n42\n')).status).toBe(400);
    expect(await keysOf('/collections/1/s/deletes?meta=_key')).toEqual(['d07', 'd09', 'd11']);
    expect(await (await req('DELETE', '/collections/1/s/deletes?prefix=d1')).text()).toBe('{"deleted":1}');
    expect(await (await req('DELETE', '/collections/1/s/deletes')).text()).toBe('{"deleted":2}');
    expect(await (await get('/collections/1/s/deletes')).text()).toBe('');
  });

  it('lists collections, deletes one across types (202) and renames across types', async () => {
    for (const type of ['vcs', 's', 'cs', 'vs']) await post(`/collections/5/${type}/homonym`, jl([{ _key: 'k', type }]));
    await post('/collections/5/s/another', jl([{ _key: 'k' }]));
    await post('/collections/5/vs/Zeta', jl([{ _key: 'k' }]));
    const list = await get('/collections/5/list');
    expect(list.headers.get('content-type')).toBe('application/x-jsonlines; charset=UTF-8');
    expect(await list.text()).toBe(
      ['{"type":"vs","name":"Zeta"}', '{"type":"s","name":"another"}', ...['s', 'cs', 'vs', 'vcs'].map((t) => `{"type":"${t}","name":"homonym"}`)].join('\n') + '\n',
    );
    const renamed = await post('/collections/5/rename?name=homonym&new_name=renamed', '');
    expect(renamed.status).toBe(200);
    expect(await lines(await get('/collections/5/vcs/renamed'))).toEqual([{ type: 'vcs' }]);
    expect(await lines(await get('/collections/5/cs/renamed'))).toEqual([{ type: 'cs' }]);
    expect(await (await get('/collections/5/s/homonym')).text()).toBe('');
    const clash = await post('/collections/5/rename?name=renamed&new_name=another', '');
    expect(clash.status).toBe(400);
    expect(await clash.text()).toMatch(/already exists\n$/);
    expect(await lines(await get('/collections/5/s/another?meta=_key'))).toEqual([{ _key: 'k' }]);
    expect((await post('/collections/5/rename?name=renamed', '')).status).toBe(400);
    const del = await post('/collections/5/delete?name=renamed', '');
    expect(del.status).toBe(202);
    expect(del.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(await del.text()).toBe('{"status":"success","deleted":"renamed"}');
    for (const type of ['s', 'cs', 'vs', 'vcs']) {
      const res = await get(`/collections/5/${type}/renamed`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('');
    }
    expect(await lines(await get('/collections/5/list'))).toEqual([{ type: 'vs', name: 'Zeta' }, { type: 's', name: 'another' }]);
  });

  it('keeps the last 3 versions of vs records and serves them newest first on /versions', async () => {
    for (let v = 1; v <= 4; v++) await post('/collections/1/vs/versioned', jl([{ _key: 'k', v }, { _key: `only${v}`, v }]));
    expect(await (await get('/collections/1/vs/versioned/k')).text()).toBe('{"v":4}\n');
    const versions = await lines(await get('/collections/1/vs/versioned/k/versions'));
    expect(versions.map((r) => r.v)).toEqual([4, 3, 2]);
    expect(versions.every((r) => typeof r._ts === 'number')).toBe(true);
    expect(versions[0]._ts).toBeGreaterThanOrEqual(versions[1]._ts);
    expect((await lines(await get('/collections/1/vs/versioned/only1/versions'))).map((r) => r.v)).toEqual([1]);
    expect((await get('/collections/1/vs/versioned/missing/versions')).status).toBe(404);
    expect((await get('/collections/1/s/scan_test/my_key_1/versions')).status).toBe(404);
    expect((await lines(await get('/collections/1/vs/versioned?meta=_key'))).map((r) => `${r._key}=${r.v}`)).toEqual(['k=4', 'only1=1', 'only2=2', 'only3=3', 'only4=4']);
    await req('DELETE', '/collections/1/vs/versioned/k');
    expect((await get('/collections/1/vs/versioned/k/versions')).status).toBe(404);
    await post('/collections/1/vs/versioned', jl([{ _key: 'k', v: 5 }]));
    expect((await lines(await get('/collections/1/vs/versioned/k/versions'))).map((r) => r.v)).toEqual([5]);
  });

  it('expires records of cs and vcs collections (COLLECTION_EXPIRY_SECONDS=2) and not the others', async () => {
    for (const type of ['s', 'cs', 'vs', 'vcs']) await post(`/collections/7/${type}/expiring`, jl([{ _key: 'old', type }]));
    expect((await get('/collections/7/cs/expiring/old')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2200));
    await post('/collections/7/cs/expiring', jl([{ _key: 'fresh' }]));
    for (const type of ['cs', 'vcs']) {
      expect((await get(`/collections/7/${type}/expiring/old`)).status).toBe(404);
      expect((await get(`/collections/7/${type}/expiring/old/value`)).status).toBe(404);
    }
    expect((await get('/collections/7/vcs/expiring/old/versions')).status).toBe(404);
    expect(await keysOf('/collections/7/cs/expiring?meta=_key')).toEqual(['fresh']);
    expect(await (await get('/collections/7/vcs/expiring/count')).text()).toMatch(/^\{"count":0,/);
    expect(await (await get('/collections/7/s/expiring/old')).text()).toBe('{"type":"s"}\n');
    expect(await (await get('/collections/7/vs/expiring/old')).text()).toBe('{"type":"vs"}\n');
  });

  it('refuses bad records with the original messages and stores nothing of that POST', async () => {
    const c = '/collections/1/s/errors';
    await post(c, jl([{ _key: 'kept', v: 1 }]));
    const cases: [string, number, string | RegExp][] = [
      [jl([{ _key: 'good1' }, { value: 1 }]), 400, 'Error parsing data, missing value for _key field\n'],
      [jl([{ _key: 'good1' }, { _key: [] }]), 400, 'Error parsing data, line 2: _key must be a non-empty string\n'],
      [jl([{ _key: 'good1' }, { _key: '' }]), 400, /_key must be a non-empty string/],
      [jl([{ _key: 'good1' }, { _key: 'big', value: 'x'.repeat(1024 * 1024) }]), 413, 'Error parsing data, Serialized value too large - max 1048576 bytes\n'],
      ['{"_key": "good1"}\n{"_key": "inf", "value": Infinity}\n', 400, 'Error parsing data, line 2: infinite and NaN values are not supported\n'],
      ['{"_key": "good1"}\n{"_key": "nan", "value": NaN}\n', 400, /line 2: infinite and NaN/],
      [jl([{ _key: 'good1' }, { _key: 'huge', value: 1e20 }]), 400, /^Error parsing data, line 2: number 100000000000000000000 out of range/],
      ['{"_key":"good1"}\n{"_key":"broken",\n', 400, /^Error parsing data, line 2: invalid JSON/],
      ['{"_key":"good1"}\n["not","an","object"]\n', 400, 'Error parsing data, line 2: a collection record must be a JSON object\n'],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(c, body);
      expect(res.status).toBe(status);
      const text = await res.text();
      if (typeof message === 'string') expect(text).toBe(message);
      else expect(text).toMatch(message);
    }
    // A body staged over several events (EVENT_CHUNK_BYTES=65536) with a bad last line stores none of it.
    const many = Array.from({ length: 3000 }, (_, i) => ({ _key: `staged${i}`, pad: 'p'.repeat(50) }));
    expect((await post(c, jl(many) + '{"value":"no key"}\n')).status).toBe(400);
    expect(await keysOf(`${c}?meta=_key`)).toEqual(['kept']);
    expect((await post(c, jl(many))).status).toBe(200);
    expect(await (await get(`${c}/count?prefix=staged`)).text()).toMatch(/^\{"count":5,/);
    expect((await lines(await get(`${c}?prefix=staged&meta=_key`))).length).toBe(3000);
    // 2^64 - 1 as written is kept (a JavaScript number would print it as 18446744073709552000, past the limit).
    expect((await post(c, '{"_key":"ok","v":18446744073709551615}\n')).status).toBe(200);
  });

  it('checks types, names and keys of the path', async () => {
    expect((await get('/collections/1/x/name')).status).toBe(404);
    expect((await post('/collections/1/x/name', jl([{ _key: 'a' }]))).status).toBe(404);
    expect((await get(`/collections/1/s/${enc('a/b')}`)).status).toBe(400);
    // The one rule for names (collections, frontiers, slots): 1 to 255 bytes, no '/', no control characters.
    expect((await get(`/collections/1/s/${'n'.repeat(256)}`)).status).toBe(400);
    expect((await get(`/collections/1/s/${'n'.repeat(255)}`)).status).toBe(200);
    expect((await get(`/collections/1/s/${enc('日'.repeat(86))}`)).status).toBe(400);
    expect((await get('/collections/1/s/a%00b')).status).toBe(400);
    expect((await get('/collections/abc/s/name')).status).toBe(400);
    expect((await post('/collections/1/delete', '')).status).toBe(400);
    expect((await post('/collections/1/s/name/onekey', '{"a":1}\n{"b":2}\n')).status).toBe(400);
  });

  it('needs a key that sees the project', async () => {
    await post('/collections/1/s/authz', jl([{ _key: 'my_key_0' }]));
    expect((await fetch(url('/collections/1/s/authz'))).status).toBe(401);
    const key = await p.createKey([42]);
    expect((await fetch(url(`/collections/42/s/mine?apikey=${key}`), { method: 'POST', body: jl([{ _key: 'a', v: 1 }]) })).status).toBe(200);
    expect(await (await fetch(url(`/collections/42/s/mine/a?apikey=${key}`))).text()).toBe('{"v":1}\n');
    for (const [method, path] of [
      ['GET', '/collections/1/s/authz'], ['GET', '/collections/1/list'], ['POST', '/collections/1/s/authz'], ['DELETE', '/collections/1/s/authz'],
      ['GET', '/collections/1/s/authz/count'], ['POST', '/collections/1/delete?name=authz'], ['POST', '/collections/1/rename?name=authz&new_name=x'],
      ['GET', '/collections/1/s/authz/my_key_0'], ['POST', '/collections/1/s/authz/deleted'],
    ]) {
      const res = await fetch(url(path), { method, headers: { authorization: basic(key) }, body: method === 'POST' ? jl([{ _key: 'x' }]) : undefined });
      expect([path, res.status]).toEqual([path, 403]);
      expect(await res.text()).toBe('Forbidden\n');
    }
    expect(await keysOf('/collections/1/s/authz?meta=_key&count=1')).toEqual(['my_key_0']);
    // A job token is scoped to its job (items, logs, requests, metadata), as for job data.
    const pushed = (await (await post('/jobq/1/push', JSON.stringify({ spider: 'collections-spider', state: 'running' }))).json()) as { key: string; auth: string };
    expect(typeof pushed.auth).toBe('string');
    const jobAuth = `Basic ${Buffer.from(`${pushed.key}:${pushed.auth}`).toString('base64')}`;
    expect((await fetch(url(`/items/${pushed.key}`), { headers: { authorization: jobAuth } })).status).toBe(200);
    expect((await fetch(url('/collections/1/s/authz'), { headers: { authorization: jobAuth } })).status).toBe(403);
  });

  it('rebuilds identical views from the log (replay)', async () => {
    const reads = [
      '/collections/1/s/scan_test?meta=_key&meta=_ts', '/collections/1/vs/versioned/k/versions', '/collections/5/list', '/collections/1/s/errors/count?prefix=staged',
      '/collections/1/s/bytes?meta=_key', '/collections/42/s/mine',
    ];
    await expectReplayKeepsReads(p, get, reads);
  });
});
