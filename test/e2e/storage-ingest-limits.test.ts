import { INestApplication } from '@nestjs/common';
import { AddressInfo } from 'node:net';
import { decodeMulti } from '@msgpack/msgpack';
import { startExtractApp } from '../../apps/extract/extract.app';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';

jest.setTimeout(120_000);

/**
 * The limits of what clients may write (docs/storage-api.md and docs/dash-api.md, Limits),
 * end to end on the lane's log and view store: each refusal is a 400 in its API's style,
 * leaves nothing behind and never fails another request; what is accepted reads back in
 * every format (issue 14, items 4, 5, 6, 7 and 9).
 */
describe('ingestion limits: nesting, positions, platform fields, names and numbers', () => {
  let p: TestPlatform;
  let auth: string;
  let extract: INestApplication;
  let extractUrl: string;
  beforeAll(async () => {
    p = await startTestPlatform({ EXTRACT_PORT: '0' });
    auth = basic(p.adminKey);
    extract = await startExtractApp(p.core, ['error']);
    extractUrl = `http://127.0.0.1:${(extract.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await extract?.close();
    await p?.stop();
  });

  const storage = (path: string, init: RequestInit = {}) => fetch(`${p.storageUrl}${path}`, { ...init, headers: { authorization: auth, ...(init.headers ?? {}) } });
  const post = (path: string, body: string, headers: Record<string, string> = {}) => storage(path, { method: 'POST', body, headers });
  const dash = (path: string, form: Record<string, string>) => fetch(`${p.dashUrl}${path}`, { method: 'POST', body: new URLSearchParams(form), headers: { authorization: auth } });
  const lines = async (res: Response) => (await res.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  /** A JSON text of `depth` arrays and objects, one inside the other (`{"a":[{"a":[...]}]}`). */
  const nested = (depth: number) => {
    let text = '"leaf"';
    for (let i = 0; i < depth; i++) text = i % 2 ? `{"a":${text}}` : `[${text}]`;
    return text;
  };
  /** A JSON object holding, under `v`, a value that makes the object `depth` levels deep. */
  const deepObject = (depth: number) => `{"v":${nested(depth - 1)}}`;
  const TOO_DEEP = 'nested deeper than 100 levels of arrays and objects (the limit)';

  describe('nesting: 100 levels of arrays and objects at most (item 5)', () => {
    it('stores an item nested 100 deep and serves it in every format; refuses 101 and 10,000 with 400 naming the line', async () => {
      expect((await post('/items/1/1/1', `${deepObject(100)}\n`)).status).toBe(200);
      const item = JSON.parse(deepObject(100));
      expect(await lines(await storage('/items/1/1/1'))).toEqual([item]);
      expect(await (await storage('/items/1/1/1?format=json')).json()).toEqual([item]);
      expect((await storage('/items/1/1/1?format=xml')).status).toBe(200);
      expect(await (await storage('/items/1/1/1?format=xml')).text()).toContain('<string>leaf</string>');
      expect(await (await storage('/items/1/1/1?format=csv&fields=v')).text()).toContain('leaf');
      const mp = await storage('/items/1/1/1', { headers: { accept: 'application/x-msgpack' } });
      expect([...decodeMulti(new Uint8Array(await mp.arrayBuffer()))]).toEqual([item]);

      for (const depth of [101, 10_000]) {
        const refused = await post('/items/1/1/1', `{"ok":1}\n${deepObject(depth)}\n`);
        expect(refused.status).toBe(400);
        expect(refused.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
        expect(await refused.text()).toBe(`Error parsing data, line 2: ${TOO_DEEP}\n`);
      }
      // Nothing of the refused bodies was stored, and the job still reads in every format.
      expect(await (await storage('/items/1/1/1/stats')).json()).toMatchObject({ totals: { input_values: 1 } });
      expect((await storage('/items/1/1/1', { headers: { accept: 'application/x-msgpack' } })).status).toBe(200);
    });

    it('refuses deep values on every storage input with a plain-text 400, and the project still reads', async () => {
      const refusals: [string, Promise<Response>][] = [
        ['job metadata', post('/jobs/1/2/1', deepObject(10_000))],
        ['job metadata field', post('/jobs/1/2/1/deep', nested(10_000))],
        ['collections', post('/collections/1/s/deep', `{"_key":"k","v":${nested(10_000)}}\n`)],
        ['frontier qdata', post('/hcf/1/f/s/slot', `{"fp":"/a","qdata":${nested(10_000)}}\n`)],
        ['jobq push', post('/jobq/1/push', `{"spider":"deep","x":${nested(10_000)}}`)],
        ['jobq update', post('/jobq/1/update', `{"key":"1/2/1","x":${nested(10_000)}}`)],
        ['project settings', post('/projects/1/settings', deepObject(10_000))],
        ['activity', post('/activity/1', deepObject(10_000))],
        ['activity lines', post('/activity/1', `{"a":1}\n${deepObject(101)}\n`)],
      ];
      for (const [what, answer] of refusals) {
        const res = await answer;
        const body = await res.text();
        expect({ what, status: res.status }).toEqual({ what, status: 400 });
        expect({ what, says: body.includes(TOO_DEEP) }).toEqual({ what, says: true });
      }
      expect((await storage('/collections/1/s/deep?format=xml')).status).toBe(200);
      expect((await storage('/activity/1?format=msgpack')).status).toBe(200);
      expect(await (await storage('/jobq/1/list')).text()).toBe('');
    });

    it('refuses deep run.json job_settings and meta in the dash style, and deep /v1/extract as problem+json', async () => {
      for (const field of ['job_settings', 'meta']) {
        const res = await dash('/run.json', { project: '2', spider: 'deep', [field]: deepObject(10_000) });
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await res.json()).toEqual({ status: 'error', message: `${field} must be a JSON object (malformed JSON: ${TOO_DEEP})` });
      }
      const settings = await dash('/run.json', { project: '2', spider: 'deep', job_settings: deepObject(100) });
      expect(settings.status).toBe(200);
      const { jobid } = (await settings.json()) as { jobid: string };
      for (const format of ['json', 'msgpack']) expect((await storage(`/jobs/${jobid}?format=${format}`)).status).toBe(200);

      const res = await fetch(`${extractUrl}/v1/extract`, {
        method: 'POST',
        body: `[{"url":"http://example.invalid/","pageType":"article","meta":${nested(10_000)}}]`,
        headers: { authorization: auth, 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await res.json()).toMatchObject({ type: expect.stringContaining('malformed-json'), title: expect.stringContaining(TOO_DEEP) });
    });
  });

  it("one tenant's bad request fails only itself: neighbours written at the same time answer 200 (item 4)", async () => {
    const good = Array.from({ length: 12 }, (_, i) => post(`/items/${10 + (i % 3)}/1/${i}`, `{"i":${i}}\n`));
    const bad = [
      dash('/run.json', { project: '13', spider: 'evil', job_settings: deepObject(10_000) }),
      post('/items/13/1/1', `${deepObject(10_000)}\n`),
      post('/jobq/13/push', `{"spider":"evil","x":${nested(10_000)}}`),
    ];
    const [goodAnswers, badAnswers] = await Promise.all([Promise.all(good), Promise.all(bad)]);
    expect(goodAnswers.map((r) => r.status)).toEqual(good.map(() => 200));
    expect(badAnswers.map((r) => r.status)).toEqual([400, 400, 400]);
    for (let i = 0; i < 12; i++) expect(await lines(await storage(`/items/${10 + (i % 3)}/1/${i}`))).toEqual([{ i }]);
  });

  describe('record positions: exact integers below 2^53, the same for writes and reads (item 6)', () => {
    const LAST = '9007199254740991';

    it('refuses Content-Range and ?start positions past 2^53 - 1 alike, storing nothing', async () => {
      for (const [path, headers] of [
        ['/items/3/1/1', { 'content-range': 'items 9007199254740992-/*' }],
        ['/items/3/1/1', { 'content-range': 'items 99999999999999999999999-/*' }],
        ['/items/3/1/1?start=9007199254740992', {}],
        ['/items/3/1/1?start=99999999999999999999999', {}],
        ['/items/3/1/1?start=1e3', {}],
      ] as [string, Record<string, string>][]) {
        const res = await post(path, '{"a":1}\n{"a":2}\n{"a":3}\n', headers);
        expect({ path, headers, status: res.status }).toEqual({ path, headers, status: 400 });
        expect(await res.text()).toMatch(/expected a record position, an integer from 0 to 9007199254740991\)\n$/);
      }
      expect(await (await storage('/items/3/1/1')).text()).toBe('');
      expect((await storage('/items/3/1/1?start=3/1/1/9007199254740992')).status).toBe(400);
    });

    it('answers 200 only when every record lands at a readable position', async () => {
      const over = await post('/items/3/1/2', '{"a":1}\n{"a":2}\n{"a":3}\n', { 'content-range': 'items 9007199254740990-/*' });
      expect(over.status).toBe(400);
      expect(await over.text()).toBe('Error parsing data, line 3: its position 9007199254740992 is past the last record position 9007199254740991\n');
      expect(await (await storage('/items/3/1/2')).text()).toBe('');

      expect((await post('/items/3/1/2', '{"a":1}\n{"a":2}\n', { 'content-range': 'items 9007199254740990-/*' })).status).toBe(200);
      expect((await post('/items/3/1/2', '{"b":0}\n', { 'content-range': 'items 7-/*' })).status).toBe(200);
      expect(await lines(await storage('/items/3/1/2?meta=_key'))).toEqual([
        { b: 0, _key: '3/1/2/7' },
        { a: 1, _key: '3/1/2/9007199254740990' },
        { a: 2, _key: `3/1/2/${LAST}` },
      ]);
      expect(await lines(await storage(`/items/3/1/2/${LAST}`))).toEqual([{ a: 2 }]);
      expect(await lines(await storage(`/items/3/1/2?start=3/1/2/9007199254740990`))).toEqual([{ a: 1 }, { a: 2 }]);
      expect(await lines(await storage(`/items/3/1/2?startafter=3/1/2/7&index=${LAST}`))).toEqual([{ a: 2 }]);
      expect(await (await storage('/items/3/1/2/stats')).json()).toMatchObject({ totals: { input_values: 3 } });
    });
  });

  describe("platform fields of a job's metadata: one rule for every client path (item 7)", () => {
    const refusal = (field: string) => `Field "${field}" is set by the platform and cannot be written`;

    it('refuses them in run.json meta, as POST jobs/<key>/<field> does, and keeps the rest', async () => {
      const res = await dash('/run.json', { project: '4', spider: 'meta', meta: JSON.stringify({ owner: 'me', _key: '1/1/1', project: 999 }) });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ status: 'error', message: refusal('_key') });
      for (const field of ['project', 'pending_time', 'scheduled_by']) {
        const one = await dash('/run.json', { project: '4', spider: 'meta', meta: JSON.stringify({ [field]: 1 }) });
        expect(await one.json()).toEqual({ status: 'error', message: refusal(field) });
      }
      expect(await (await post('/jobs/4/1/1/project', '999')).text()).toBe(`${refusal('project')}\n`);

      const ok = await dash('/run.json', { project: '4', spider: 'meta', meta: JSON.stringify({ owner: 'me', state: 'running' }) });
      const { jobid } = (await ok.json()) as { jobid: string };
      expect(JSON.parse(await (await storage(`/jobs/${jobid}`)).text())).toMatchObject({ owner: 'me', state: 'running', project: 4, spider: 'meta' });
      expect(JSON.parse(await (await storage(`/jobs/${jobid}`)).text())._key).toBeUndefined();
    });

    it('refuses them in the extra fields of jobq push and update, in the storage style', async () => {
      const push = await post('/jobq/4/push', '{"spider":"meta","project":5}');
      expect(push.status).toBe(400);
      expect(await push.text()).toBe(`${refusal('project')}\n`);
      const [{ key }] = await lines(await post('/jobq/4/push', '{"spider":"meta","owner":"me"}'));
      const update = await post('/jobq/4/update', JSON.stringify({ key, auth: 'forged' }));
      expect(await update.text()).toBe(`${refusal('auth')}\n`);
      expect(JSON.parse(await (await storage(`/jobs/${key}`)).text())).toMatchObject({ owner: 'me', project: 4 });
    });
  });

  describe('names, integers, numbers and saveas (item 9)', () => {
    it('takes spider names by one rule on every path: letters, digits, _ - ., at most 256', async () => {
      for (const name of ['a/b', 'nul\u0000', 'x'.repeat(10_000), '../up', 'with space']) {
        const run = await dash('/run.json', { project: '5', spider: name });
        expect(run.status).toBe(400);
        expect(((await run.json()) as { message: string }).message).toMatch(/^Invalid spider name /);
        const push = await post('/jobq/5/push', JSON.stringify({ spider: name }));
        expect(push.status).toBe(400);
        expect(await push.text()).toMatch(/^Invalid spider name /);
      }
      expect((await storage(`/ids/5/spider/${encodeURIComponent('with space')}?create=1`)).status).toBe(400);
      expect((await dash('/run.json', { project: '5', spider: 'ok-name.v2_x' })).status).toBe(200);
      expect(await (await storage('/jobq/5/list?state=pending')).text()).toContain('"spider": "ok-name.v2_x"');
    });

    it('reads form integers strictly: units=1e0 is refused like priority=2.5', async () => {
      for (const [name, value] of [['units', '1e0'], ['units', '1.0'], ['units', ' 1'], ['priority', '2.5'], ['priority', '0x1']]) {
        const res = await dash('/run.json', { project: '6', spider: 's', [name]: value });
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ status: 'error', message: expect.stringMatching(new RegExp(`^Invalid ${name}: `)) });
      }
      expect((await dash('/run.json', { project: '6', spider: 's', units: '2', priority: '4' })).status).toBe(200);
    });

    it('refuses collection numbers above 2^64 - 1 as written, and keeps 2^64 - 1', async () => {
      const res = await post('/collections/7/s/nums', '{"_key":"big","v":18446744073709551616}\n');
      expect(res.status).toBe(400);
      expect(await res.text()).toBe('Error parsing data, line 1: number 18446744073709551616 out of range (the largest magnitude allowed is 2^64 - 1)\n');
      expect((await post('/collections/7/s/nums', '{"_key":"max","v":18446744073709551615}\n')).status).toBe(200);
      expect(await (await storage('/collections/7/s/nums/max')).text()).toBe('{"v":18446744073709551615}\n');
      expect((await storage('/collections/7/s/nums/big')).status).toBe(404);
    });

    it('builds Content-Disposition for saveas with a file name only, encoded per RFC 6266', async () => {
      await post('/items/8/1/1', '{"a":1}\n');
      expect((await storage('/items/8/1/1?saveas=../../etc/passwd')).headers.get('content-disposition')).toBe('Attachment; filename=passwd');
      expect((await storage(`/items/8/1/1?saveas=${encodeURIComponent('my "items".jl')}`)).headers.get('content-disposition')).toBe(
        `Attachment; filename="my \\"items\\".jl"; filename*=UTF-8''my%20%22items%22.jl`,
      );
      const refused = await storage('/items/8/1/1?saveas=..');
      expect(refused.status).toBe(400);
      expect(await refused.text()).toMatch(/^Invalid saveas/);
    });
  });
});
