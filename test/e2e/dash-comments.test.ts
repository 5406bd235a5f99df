import { keyIdOf } from '@crawlhub/access';
import { basic, expectReplayKeepsReads, startTestPlatform, TestPlatform } from '../support/platform';

jest.setTimeout(60_000);

interface Comment {
  id: number;
  created: string;
  archived: string | null;
  author: string;
  avatar: string;
  text: string;
  editable: boolean;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The comments API of the dash app (/api/comments), end to end through HTTP, on the lane's log and view store. */
describe('dash API: comments', () => {
  let p: TestPlatform;
  let admin: string;
  let adminId: string;
  let other: string;
  // Projects of their own, so that a log shared with earlier runs (Kafka) cannot interfere.
  const P = 100_000 + Math.floor(Math.random() * 800_000);
  const Q = P + 1;
  const job = `${P}/2/3`;

  beforeAll(async () => {
    p = await startTestPlatform();
    admin = p.adminKey;
    adminId = keyIdOf(admin);
    other = await p.createKey([P]);
  });
  afterAll(() => p?.stop());

  const call = (method: string, path: string, key: string | null = admin, form?: Record<string, string>) =>
    fetch(`${p.dashUrl}/comments/${path}`, {
      method,
      headers: { ...(key ? { authorization: basic(key) } : {}), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
  const json = async (res: Response, status = 200) => {
    const body = await res.text();
    expect({ status: res.status, body }).toEqual({ status, body: expect.any(String) });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    return JSON.parse(body);
  };
  const add = async (path: string, text: string, key = admin): Promise<Comment> => json(await call('POST', path, key, { text }));
  const error = async (res: Response, status: number) => {
    const body = await json(res, status);
    expect(Object.keys(body)).toEqual(['status', 'message']);
    expect(body.status).toBe('error');
    return body.message as string;
  };

  let onItem: Comment;
  let onField: Comment;

  it('adds comments to an item and to a field, and answers with the new comment object', async () => {
    onItem = await add(`${job}/0`, 'looks wrong');
    expect(Object.keys(onItem)).toEqual(['id', 'created', 'archived', 'author', 'avatar', 'text', 'editable']);
    expect(onItem).toEqual({ id: expect.any(Number), created: expect.stringMatching(ISO), archived: null, author: adminId, avatar: '', text: 'looks wrong', editable: true });
    expect(Math.abs(Date.parse(onItem.created) - Date.now())).toBeLessThan(60_000);
    onField = await add(`${job}/0/price`, 'price: ünïcode & "quotes"\nsecond line');
    expect(onField.text).toBe('price: ünïcode & "quotes"\nsecond line');
    expect(onField.id).not.toBe(onItem.id);
    // The text may also come in the query string.
    const res = await fetch(`${p.dashUrl}/comments/${job}/1?text=${encodeURIComponent('from the query')}`, { method: 'POST', headers: { authorization: basic(admin) } });
    expect((await json(res)).text).toBe('from the query');
  });

  it('lists per job (keyed item or item/field, item order), per item and per field', async () => {
    const second = await add(`${job}/0`, 'second on item 0', other);
    await add(`${job}/10/name`, 'on item 10', other);
    const res = await call('GET', job);
    const raw = await res.clone().text();
    const byJob = await json(res);
    // Keys in item order, an item before its fields (as sent: JSON.parse would move integer keys first).
    expect([...raw.matchAll(/"([^"]+)":\[/g)].map((m) => m[1])).toEqual(['0', '0/price', '1', '10/name']);
    expect(byJob['0']).toEqual([onItem, { ...second, editable: false }]);
    expect(byJob['0/price']).toEqual([onField]);
    expect(await json(await call('GET', `${job}/0`))).toEqual([onItem, { ...second, editable: false }]);
    expect(await json(await call('GET', `${job}/0/price`))).toEqual([onField]);
    expect(await json(await call('GET', `${job}/0/nope`))).toEqual([]);
    expect(await json(await call('GET', `${job}/7`))).toEqual([]);
    expect(await json(await call('GET', `${P}/2/99`))).toEqual({});
    // editable is true for the author only.
    const asOther = await json(await call('GET', `${job}/0`, other));
    expect(asOther.map((c: Comment) => [c.author, c.editable])).toEqual([[adminId, false], [keyIdOf(other), true]]);
  });

  it('edits a comment by id (author only) and answers with the edited comment', async () => {
    const edited = await json(await call('PUT', String(onItem.id), admin, { text: 'looks wrong: price is negative' }));
    expect(edited).toEqual({ ...onItem, text: 'looks wrong: price is negative' });
    onItem = edited;
    expect((await json(await call('GET', `${job}/0`)))[0]).toEqual(edited);
    expect(await error(await call('PUT', String(onItem.id), other, { text: 'not mine' }), 403)).toMatch(/author/);
    expect((await json(await call('GET', `${job}/0`)))[0].text).toBe('looks wrong: price is negative');
  });

  it('archives the comments of exactly the item or field route; they stay listed with their date', async () => {
    const archived: Comment[] = await json(await call('DELETE', `${job}/0`, other));
    expect(archived.map((c) => c.id)).toEqual((await json(await call('GET', `${job}/0`))).map((c: Comment) => c.id));
    expect(archived).toHaveLength(2);
    for (const c of archived) expect(c.archived).toMatch(ISO);
    const listed: Comment[] = await json(await call('GET', `${job}/0`));
    expect(listed.map((c) => c.archived)).toEqual(archived.map((c) => c.archived));
    expect(listed[0]).toEqual({ ...onItem, archived: archived[0].archived });
    // The field's comments are not archived by the item route; archiving again archives nothing.
    expect((await json(await call('GET', `${job}/0/price`)))[0].archived).toBeNull();
    expect(await json(await call('DELETE', `${job}/0`))).toEqual([]);
    // A new comment on an archived target is active.
    const fresh = await add(`${job}/0`, 'new after archive');
    expect(fresh.archived).toBeNull();
    expect(fresh.id).toBeGreaterThan(0);
  });

  it('counts per job the items with unarchived comments', async () => {
    await add(`${P}/5/1/3`, 'other job');
    await add(`${P}/5/1/3/title`, 'same item, a field');
    await add(`${P}/5/2/0`, 'will be archived');
    await call('DELETE', `${P}/5/2/0`);
    // job: items 0 (a fresh comment and an active field comment), 1, 10 (field) -> 3
    expect(await json(await call('GET', `${P}/stats`))).toEqual({ [job]: 3, [`${P}/5/1`]: 1 });
    await call('DELETE', `${job}/0`);
    await call('DELETE', `${job}/1`);
    expect(await json(await call('GET', `${P}/stats`))).toEqual({ [job]: 2, [`${P}/5/1`]: 1 });
    await call('DELETE', `${job}/0/price`);
    expect(await json(await call('GET', `${P}/stats`))).toEqual({ [job]: 1, [`${P}/5/1`]: 1 });
    expect(await json(await call('GET', `${Q}/stats`))).toEqual({});
  });

  it('deletes a comment by id (author only): gone from every listing and from the stats', async () => {
    const c = await add(`${P}/6/1/4`, 'to delete', other);
    expect(await json(await call('GET', `${P}/stats`))).toHaveProperty(`${P}/6/1`, 1);
    expect(await error(await call('DELETE', String(c.id), admin), 403)).toMatch(/author/);
    const deleted = await json(await call('DELETE', String(c.id), other));
    expect(deleted).toEqual(c);
    expect(await json(await call('GET', `${P}/6/1`))).toEqual({});
    expect(await json(await call('GET', `${P}/stats`))).not.toHaveProperty(`${P}/6/1`);
    expect(await error(await call('DELETE', String(c.id), other), 404)).toBe(`Comment ${c.id} not found`);
    expect(await error(await call('PUT', String(c.id), other, { text: 'x' }), 404)).toBe(`Comment ${c.id} not found`);
  });

  it('needs a key (401) that sees the project (403)', async () => {
    expect(await error(await call('GET', job, null), 401)).toBe('Authentication failed');
    expect(await error(await call('GET', job, '0'.repeat(32)), 401)).toBe('Authentication failed');
    expect(await error(await call('POST', `${job}/0`, null, { text: 'x' }), 401)).toBe('Authentication failed');
    expect(await error(await call('PUT', String(onItem.id), null, { text: 'x' }), 401)).toBe('Authentication failed');
    const q = await add(`${Q}/1/1/0`, 'in another project');
    expect(await error(await call('GET', `${Q}/1/1`, other), 403)).toBe(`You do not have access to project ${Q}`);
    expect(await error(await call('GET', `${Q}/1/1/0`, other), 403)).toMatch(/access/);
    expect(await error(await call('POST', `${Q}/1/1/0`, other, { text: 'x' }), 403)).toMatch(/access/);
    expect(await error(await call('DELETE', `${Q}/1/1/0`, other), 403)).toMatch(/access/);
    expect(await error(await call('GET', `${Q}/stats`, other), 403)).toMatch(/access/);
    expect(await error(await call('PUT', String(q.id), other, { text: 'x' }), 403)).toMatch(/access/);
    expect(await error(await call('DELETE', String(q.id), other), 403)).toMatch(/access/);
    expect(await json(await call('GET', `${Q}/1/1/0`))).toEqual([q]);
    // apikey= works too.
    expect((await fetch(`${p.dashUrl}/comments/${job}/0?apikey=${other}`)).status).toBe(200);
  });

  it('refuses bad input with 400 and unknown ids with 404, in the dash style', async () => {
    expect(await error(await call('POST', `${job}/0`, admin, {}), 400)).toBe('the "text" parameter is required');
    expect(await error(await call('POST', `${job}/0`), 400)).toBe('the "text" parameter is required');
    expect(await error(await call('POST', `${job}/0`, admin, { text: '' }), 400)).toBe('the "text" parameter must not be empty');
    expect(await error(await call('POST', `${job}/0/f`, admin, { text: '  \n ' }), 400)).toMatch(/empty/);
    expect(await error(await call('POST', `${job}/0`, admin, { text: 'x'.repeat(65_537) }), 400)).toMatch(/longer/);
    expect(await error(await call('PUT', String(onItem.id), admin, {}), 400)).toMatch(/required/);
    expect(await error(await call('PUT', String(onItem.id), admin, { text: '' }), 400)).toMatch(/empty/);
    expect(await error(await call('GET', `${P}/x/3`), 400)).toBe('Invalid spider id: "x"');
    expect(await error(await call('GET', `abc/stats`), 400)).toBe('Invalid project id: "abc"');
    expect(await error(await call('POST', `${job}/-1`, admin, { text: 'x' }), 400)).toBe('Invalid item number: "-1"');
    expect(await error(await call('DELETE', `${job}/1.5`), 400)).toMatch(/item number/);
    expect(await error(await call('PUT', 'abc', admin, { text: 'x' }), 400)).toBe('Invalid comment id: "abc"');
    expect(await error(await call('DELETE', 'abc'), 400)).toMatch(/comment id/);
    expect(await error(await call('PUT', '999999999999', admin, { text: 'x' }), 404)).toBe('Comment 999999999999 not found');
    expect(await error(await call('DELETE', '999999999999'), 404)).toMatch(/not found/);
    expect(await error(await call('GET', `${P}/2`), 404)).toBe('Not Found');
    // Nothing of the refused writes was stored.
    expect((await json(await call('GET', `${job}/0/f`)))).toEqual([]);
  });

  it('rebuilds identical answers from the log (replay)', async () => {
    const reads: [string, string][] = [
      [admin, job], [other, job], [admin, `${job}/0`], [admin, `${job}/0/price`], [admin, `${P}/stats`], [admin, `${P}/5/1`], [admin, `${Q}/1/1`], [admin, `${Q}/stats`],
    ];
    await expectReplayKeepsReads(p, ([key, path]) => call('GET', path, key), reads, { longerThan: 2 });
    // Writes go on after the replay: ids stay unique.
    const next = await add(`${job}/20`, 'after replay');
    const ids = Object.values(await json(await call('GET', job))).flat().map((c) => (c as Comment).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(next.id);
  });
});

describe('comments API without a projector', () => {
  it('answers 503 with Retry-After in the dash style when the views do not catch up within the bound, and keeps the write', async () => {
    const p = await startTestPlatform({ READ_YOUR_WRITES_TIMEOUT_MS: '300', CRAWLHUB_ADMIN_KEY: 'admin-key-for-comments-projector-down' }, { projector: false });
    const total = async () => (await p.core.eventLog.endOffsets('comments').catch(() => [0])).reduce((a, b) => a + b, 0);
    try {
      const before = await total();
      const res = await fetch(`${p.dashUrl}/comments/1/2/3/0`, {
        method: 'POST',
        body: 'text=hello',
        headers: { authorization: basic(p.adminKey), 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect([res.status, res.headers.get('retry-after')]).toEqual([503, '5']);
      const body = (await res.json()) as { status: string; message: string };
      expect(body.status).toBe('error');
      expect(body.message).toMatch(/^Service Unavailable/);
      expect(await total()).toBe(before + 1);
    } finally {
      await p.stop();
    }
  });
});
