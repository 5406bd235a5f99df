import { gzipSync } from 'node:zlib';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';

jest.setTimeout(120_000);

interface Batch {
  id: string;
  requests: [string, unknown][];
}

/**
 * The crawl frontier (HCF) of the storage API, end to end through HTTP, on the lane's
 * log and view store (embedded, EVENT_LOG=kafka, VIEW_STORE=mongodb).
 */
describe('storage API: crawl frontier', () => {
  let p: TestPlatform;
  let auth: string;
  beforeAll(async () => {
    p = await startTestPlatform({ FRONTIER_COUNT_BATCHES: '3', FRONTIER_MAX_POST_BYTES: '200000' });
    auth = basic(p.adminKey);
  });
  afterAll(() => p?.stop());

  const url = (path: string) => `${p.storageUrl}${path}`;
  const send = (method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(url(path), { method, body, headers: { authorization: auth, ...headers } });
  const jl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const add = async (slot: string, requests: unknown[], query = '') => {
    const res = await send('POST', `/hcf/1/${slot}${query}`, jl(requests));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    return ((await res.json()) as { newcount: number }).newcount;
  };
  const read = async (slot: string, query = ''): Promise<Batch[]> => {
    const res = await send('GET', `/hcf/1/${slot}/q${query}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    if (text !== '') {
      expect(res.headers.get('content-type')).toBe('application/x-jsonlines; charset=UTF-8');
      expect(text.endsWith('\n')).toBe(true);
    }
    return text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  };
  const del = async (slot: string, ids: unknown[]) => {
    const res = await send('POST', `/hcf/1/${slot}/q/deleted`, jl(ids));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(res.headers.get('content-type')).toBeNull();
  };
  const fps = (n: number, prefix: string, extra: Record<string, unknown> = {}) => Array.from({ length: n }, (_, i) => ({ fp: `${prefix}${i}`, ...extra }));
  const count = async (slot: string, query = '') => {
    const res = await send('GET', `/hcf/1/${slot}/q/count${query}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    return (await res.json()) as { count: number; nextstart?: string };
  };
  /** Sums q/count pages, following nextstart (FRONTIER_COUNT_BATCHES=3 here). */
  const countAll = async (slot: string) => {
    let total = 0;
    let start = '';
    for (;;) {
      const r = await count(slot, start ? `?start=${start}` : '');
      total += r.count;
      if (!r.nextstart) return total;
      start = r.nextstart;
    }
  };
  const sizes = (batches: Batch[]) => batches.map((b) => b.requests.length);

  it('splits one POST of 150 into batches of 100 + 50, counts new fingerprints only, and re-serves until deleted', async () => {
    expect(await add('fa/s/one', fps(150, 'http://a/'))).toBe(150);
    expect(await add('fa/s/one', fps(160, 'http://a/'))).toBe(10);
    const batches = await read('fa/s/one', '?mincount=1000');
    expect(sizes(batches)).toEqual([100, 50, 10]);
    expect(batches.map((b) => b.id)).toEqual([...batches.map((b) => b.id)].sort());
    expect(batches[0].requests[0]).toEqual(['http://a/0', null]);
    expect(batches[2].requests.map((r) => r[0])).toEqual(fps(10, 'http://a/', {}).map((_, i) => `http://a/${150 + i}`));
    // Reading does not consume.
    expect((await read('fa/s/one', '?mincount=1000')).map((b) => b.id)).toEqual(batches.map((b) => b.id));
    await del('fa/s/one', [batches[0].id]);
    expect((await read('fa/s/one', '?mincount=1000')).map((b) => b.id)).toEqual([batches[1].id, batches[2].id]);
    // Several lines, arrays of ids, unknown ids: one delete, 200.
    await del('fa/s/one', [[batches[1].id], batches[2].id, 'unknown-id', ['00000000000000000000']]);
    expect(await read('fa/s/one')).toEqual([]);
    // Deleted batches do not give their fingerprints back.
    expect(await add('fa/s/one', fps(3, 'http://a/'))).toBe(0);
  });

  it('counts a fingerprint repeated inside one POST once (the first occurrence wins)', async () => {
    expect(await add('fa/s/dups', [{ fp: 'x', qdata: 1 }, { fp: 'y' }, { fp: 'x', qdata: 2 }, { fp: 'y', p: 3 }])).toBe(2);
    expect(await read('fa/s/dups')).toEqual([{ id: expect.any(String), requests: [['x', 1], ['y', null]] }]);
  });

  it('puts priorities in different batches, lower p first', async () => {
    expect(await add('fa/s/prio', [{ fp: 'deep', p: 2 }, { fp: '/' }, { fp: 'page1.html', p: 1 }, { fp: 'deeper', p: 2 }])).toBe(4);
    const batches = await read('fa/s/prio');
    expect(batches.map((b) => b.requests.map((r) => r[0]))).toEqual([['/'], ['page1.html'], ['deep', 'deeper']]);
    expect(batches.map((b) => b.id.slice(0, 2))).toEqual(['00', '01', '02']);
    // An older low-priority batch still comes after a newer p=0 one.
    await add('fa/s/prio', [{ fp: 'late' }]);
    expect((await read('fa/s/prio')).map((b) => b.requests[0][0])).toEqual(['/', 'late', 'page1.html', 'deep']);
  });

  it('returns whole batches until mincount (default 100), and iterates with start', async () => {
    for (let i = 0; i < 3; i++) await add('fa/s/min', fps(100, `m${i}-`));
    await add('fa/s/min', fps(3, 'small-'));
    await add('fa/s/min', fps(3, 'small2-'));
    expect(sizes(await read('fa/s/min'))).toEqual([100]);
    expect(sizes(await read('fa/s/min', '?mincount=100'))).toEqual([100]);
    expect(sizes(await read('fa/s/min', '?mincount=101'))).toEqual([100, 100]);
    expect(sizes(await read('fa/s/min', '?mincount=1'))).toEqual([100]);
    const all = await read('fa/s/min', '?mincount=100000');
    expect(sizes(all)).toEqual([100, 100, 100, 3, 3]);
    expect((await read('fa/s/min', `?start=${all[3].id}`)).map((b) => b.id)).toEqual([all[3].id, all[4].id]);
    expect((await read('fa/s/min', `?start=${all[1].id}&mincount=150`)).map((b) => b.id)).toEqual([all[1].id, all[2].id]);
    expect((await send('GET', '/hcf/1/fa/s/min/q?mincount=-1')).status).toBe(400);
  });

  it('counts queued requests with a nextstart loop when the scan budget stops early', async () => {
    for (let i = 0; i < 4; i++) await add('fa/s/count', fps(30 + i, `c${i}-`));
    await add('fa/s/count', [...fps(5, 'p1-', { p: 1 }), ...fps(2, 'p2-', { p: 2 })]);
    // 6 batches; FRONTIER_COUNT_BATCHES=3 in this platform.
    let total = 0;
    let pages = 0;
    let start = '';
    for (;;) {
      const r = await count('fa/s/count', start ? `?start=${start}` : '');
      total += r.count;
      pages++;
      if (!r.nextstart) break;
      start = r.nextstart;
    }
    expect(total).toBe(30 + 31 + 32 + 33 + 5 + 2);
    expect(pages).toBe(2);
    expect(await count('fa/s/empty')).toEqual({ count: 0 });
  });

  it('stores qdata with the queued request and fdata with the fingerprint', async () => {
    await add('fa/s/data', [
      { fp: 'b', qdata: { depth: 1, tags: ['x'] }, fdata: { seen: 1 } },
      { fp: 'a', qdata: 'plain string' },
      { fp: 'c', fdata: [1, 2] },
    ]);
    expect((await read('fa/s/data'))[0].requests).toEqual([['b', { depth: 1, tags: ['x'] }], ['a', 'plain string'], ['c', null]]);
    const res = await send('GET', '/hcf/1/fa/s/data/f');
    expect(res.headers.get('content-type')).toBe('application/x-jsonlines; charset=UTF-8');
    expect(await res.text()).toBe('{"fp":"a"}\n{"fp":"b","fdata":{"seen":1}}\n{"fp":"c","fdata":[1,2]}\n');
  });

  it('lists fingerprints in byte order with start, startafter and count', async () => {
    const names = ['my_key_10', 'my_key_2', 'my_key_1', 'B', 'a', 'my_key_0', 'é', 'z'];
    await add('fa/s/fps', names.map((fp) => ({ fp })));
    const list = async (q = '') => (await (await send('GET', `/hcf/1/fa/s/fps/f${q}`)).text()).split('\n').filter(Boolean).map((l) => JSON.parse(l).fp);
    const sorted = [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect(sorted).toEqual(['B', 'a', 'my_key_0', 'my_key_1', 'my_key_10', 'my_key_2', 'z', 'é']);
    expect(await list()).toEqual(sorted);
    expect(await list('?start=my_key_1')).toEqual(sorted.slice(3));
    expect(await list('?startafter=my_key_1')).toEqual(sorted.slice(4));
    expect(await list('?start=my_key_1&count=2')).toEqual(['my_key_1', 'my_key_10']);
    expect(await list('?count=0')).toEqual([]);
    expect(await (await send('GET', '/hcf/1/fa/s/nothing/f')).text()).toBe('');
  });

  it('lists frontiers and slots as JSON arrays; deleting a slot removes its queue and fingerprints, and an empty frontier disappears', async () => {
    await add('fl1/s/host-b', fps(2, 'b'));
    await add('fl1/s/host-a', fps(2, 'a'));
    await add('fl2/s/only', fps(1, 'o'));
    const list = async (path: string) => {
      const res = await send('GET', path);
      expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      return res.json();
    };
    const frontiers = (await list('/hcf/1/list')) as string[];
    expect(frontiers).toEqual(expect.arrayContaining(['fa', 'fl1', 'fl2']));
    expect(frontiers).toEqual([...frontiers].sort());
    expect(await list('/hcf/1/fl1/list')).toEqual(['host-a', 'host-b']);
    // Deleting every batch keeps the slot (its fingerprints remain).
    const [b] = await read('fl1/s/host-a');
    await del('fl1/s/host-a', [b.id]);
    expect(await list('/hcf/1/fl1/list')).toEqual(['host-a', 'host-b']);

    const res = await send('DELETE', '/hcf/1/fl2/s/only');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(res.headers.get('content-type')).toBeNull();
    expect(await list('/hcf/1/fl2/list')).toEqual([]);
    expect(await list('/hcf/1/list')).not.toContain('fl2');
    expect(await read('fl2/s/only')).toEqual([]);
    // Fingerprints are gone too: the same requests are new again.
    expect(await add('fl2/s/only', fps(1, 'o'))).toBe(1);
    // Deleting what does not exist is a 200.
    expect((await send('DELETE', '/hcf/1/nope/s/nope')).status).toBe(200);
    expect(await list('/hcf/99/list')).toEqual([]);
  });

  it('accepts the Python writer\'s ?start= and content-encoding: identity, and gzip bodies', async () => {
    const res = await send('POST', '/hcf/1/fa/s/writer?start=5000', jl(fps(3, 'w')), { 'content-encoding': 'identity' });
    expect(await res.json()).toEqual({ newcount: 3 });
    const gz = await send('POST', '/hcf/1/fa/s/writer', gzipSync(jl(fps(5, 'w'))), { 'content-encoding': 'gzip' });
    expect(await gz.json()).toEqual({ newcount: 2 });
    expect((await send('POST', '/hcf/1/fa/s/writer', 'x', { 'content-encoding': 'br' })).status).toBe(415);
    expect(await add('fa/s/writer', [])).toBe(0);
  });

  it('decides newcount in one place: 8 concurrent producers posting overlapping fingerprints to one slot', async () => {
    const producers = 8;
    const distinct = 2000;
    const posts: Promise<number>[] = [];
    for (let w = 0; w < producers; w++) {
      posts.push(
        (async () => {
          let sum = 0;
          for (let round = 0; round < 5; round++) {
            // Each POST: 200 fingerprints from a window that overlaps the other producers'.
            const from = (w * 250 + round * 300) % distinct;
            const body = Array.from({ length: 200 }, (_, i) => ({ fp: `f${(from + i * 3) % distinct}`, qdata: { w } }));
            sum += await add('fc/s/shared', body);
          }
          return sum;
        })(),
      );
    }
    const sums = await Promise.all(posts);
    const posted = new Set<string>();
    for (let w = 0; w < producers; w++) for (let round = 0; round < 5; round++) for (let i = 0; i < 200; i++) posted.add(`f${((w * 250 + round * 300) % distinct + i * 3) % distinct}`);
    expect(sums.reduce((a, b) => a + b, 0)).toBe(posted.size);
    const queued = (await read('fc/s/shared', '?mincount=100000')).flatMap((b) => b.requests.map((r) => r[0]));
    expect(queued.length).toBe(posted.size);
    expect(new Set(queued).size).toBe(posted.size);
  });

  describe('leases (crawlhub extension)', () => {
    it('gives two readers disjoint batches, hides leased batches from plain reads, and re-serves an expired lease', async () => {
      for (let i = 0; i < 4; i++) await add('fe/s/lease', fps(100, `l${i}-`));
      const [a, b] = await Promise.all([read('fe/s/lease', '?lease=60&mincount=150'), read('fe/s/lease', '?lease=60&mincount=150')]);
      expect(sizes(a)).toEqual([100, 100]);
      expect(sizes(b)).toEqual([100, 100]);
      const ids = [...a, ...b].map((x) => x.id);
      expect(new Set(ids).size).toBe(4);
      expect(await read('fe/s/lease', '?lease=60')).toEqual([]);
      expect(await read('fe/s/lease')).toEqual([]);
      expect(await countAll('fe/s/lease')).toBe(400);

      await add('fe/s/lease2', fps(100, 'x'));
      await add('fe/s/lease2', fps(100, 'y'));
      const [first] = await read('fe/s/lease2', '?lease=1');
      expect((await read('fe/s/lease2')).map((x) => x.id)).not.toContain(first.id);
      await new Promise((r) => setTimeout(r, 1300));
      // Expired: plain reads and new leases see it again, with the same id.
      expect((await read('fe/s/lease2'))[0].id).toBe(first.id);
      const again = await read('fe/s/lease2', '?lease=30');
      expect(again.map((x) => x.id)).toEqual([first.id]);
      // Deleted is gone for good.
      await del('fe/s/lease2', [first.id]);
      expect((await read('fe/s/lease2', '?mincount=1000')).map((x) => x.id)).not.toContain(first.id);
      expect((await send('GET', '/hcf/1/fe/s/lease2/q?lease=0')).status).toBe(400);
      expect((await send('GET', '/hcf/1/fe/s/lease2/q?lease=abc')).status).toBe(400);
    });
  });

  describe('auth and bad input', () => {
    it('needs a key that sees the project', async () => {
      expect((await fetch(url('/hcf/1/list'))).status).toBe(401);
      const other = await p.createKey([2]);
      const res = await fetch(url('/hcf/1/fa/s/one/q'), { headers: { authorization: basic(other) } });
      expect(res.status).toBe(403);
      expect((await fetch(url('/hcf/1/fa/s/auth'), { method: 'POST', body: jl(fps(1, 'x')), headers: { authorization: basic(other) } })).status).toBe(403);
      const mine = await p.createKey([1]);
      expect((await fetch(url(`/hcf/1/list?apikey=${mine}`))).status).toBe(200);
      expect(await (await send('GET', '/hcf/1/fa/s/auth/f')).text()).toBe('');
    });

    it('refuses malformed requests with a 4xx naming the line and applies nothing', async () => {
      const bad = async (body: string, status = 400) => {
        const res = await send('POST', '/hcf/1/fb/s/bad', body);
        expect(res.status).toBe(status);
        expect(res.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
        return res.text();
      };
      expect(await bad('{"fp":"ok"}\n{"fp":"ok2"}\nnot json\n')).toContain('line 3');
      expect(await bad('{"fp":"ok"}\n{"nofp":1}\n')).toContain('line 2');
      expect(await bad('{"fp":""}\n')).toContain('line 1');
      expect(await bad('{"fp":"a","p":256}\n')).toContain('p must be an integer from 0 to 255');
      expect(await bad('["a"]\n')).toContain('line 1');
      expect(await bad(jl(fps(10_000, 'big-big-big-')), 413)).toContain('Request Entity Too Large');
      expect(await read('fb/s/bad')).toEqual([]);
      expect(await (await send('GET', '/hcf/1/fb/s/bad/f')).text()).toBe('');
      expect(await (await send('GET', '/hcf/1/fb/list')).json()).toEqual([]);

      await add('fb/s/del', fps(1, 'd'));
      const [b] = await read('fb/s/del');
      const res = await send('POST', '/hcf/1/fb/s/del/q/deleted', `${JSON.stringify(b.id)}\n{"id":"x"}\n`);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('line 2');
      expect((await send('POST', '/hcf/1/fb/s/del/q/deleted', `${JSON.stringify(b.id)}\n[1]\n`)).status).toBe(400);
      expect((await read('fb/s/del')).map((x) => x.id)).toEqual([b.id]);
    });

    it('validates names and ids in the path', async () => {
      expect((await send('GET', '/hcf/x/list')).status).toBe(400);
      expect((await send('GET', `/hcf/1/fa/s/${'s'.repeat(300)}/q`)).status).toBe(400);
      expect((await send('GET', '/hcf/1/fa/s/a%2Fb/q')).status).toBe(400);
      expect((await send('POST', '/hcf/1/a%2Fb/s/x', jl(fps(1, 'x')))).status).toBe(400);
    });
  });
});
