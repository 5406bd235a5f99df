import { basic, startTestPlatform, TestPlatform } from '../support/platform';

jest.setTimeout(60_000);

/**
 * What the official Python client sends that crawlhub once refused or answered wrongly
 * (issue 15, measured with the client's own test suite): booleans spelled by Python, the
 * purge of a job its fixtures call, the dash URL in a scheduled job's metadata, the
 * fields of JobQ's job summaries, collections listed after they were emptied.
 */
describe('the official client\'s requests', () => {
  let p: TestPlatform;
  let auth: string;
  beforeAll(async () => {
    p = await startTestPlatform();
    auth = basic(p.adminKey);
  });
  afterAll(() => p?.stop());

  const storage = (path: string, init: RequestInit = {}) => fetch(`${p.storageUrl}${path}`, { ...init, headers: { authorization: auth, ...(init.headers ?? {}) } });
  const lines = async (res: Response) => (await res.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const push = async (project: number, body: Record<string, unknown>) => (await lines(await storage(`/jobq/${project}/push`, { method: 'POST', body: JSON.stringify(body) })))[0];
  const update = (project: number, body: Record<string, unknown>) => storage(`/jobq/${project}/update`, { method: 'POST', body: JSON.stringify(body) });

  it('creates a spider id for create=True, the way Python spells a boolean, and not for create=False', async () => {
    expect(await (await storage('/ids/31/spider/py-false?create=False')).text()).toBe('null');
    expect(await (await storage('/ids/31/spider/py-true?create=True')).text()).toBe('1');
    expect(await (await storage('/ids/31/spider/py-true')).text()).toBe('1');
  });

  it('purges a deleted job (DELETE jobs/<p>/<s>/<j>): it leaves every list and count, and its number is not given again', async () => {
    const { key } = await push(32, { spider: 'gone' });
    const kept = (await push(32, { spider: 'gone', state: 'finished' })).key;
    // Not deleted yet: refused, in the storage API's plain-text style.
    const early = await storage(`/jobs/${key}`, { method: 'DELETE' });
    expect(early.status).toBe(400);
    expect(await early.text()).toContain(`Job ${key} is pending: only a deleted job can be purged`);

    await update(32, { key, state: 'finished' });
    await update(32, { key, state: 'deleted' });
    const purged = await storage(`/jobs/${key}`, { method: 'DELETE' });
    expect(purged.status).toBe(200);
    expect(await purged.text()).toBe('');

    const all = '/jobq/32/list?state=pending&state=running&state=finished&state=deleted';
    expect((await lines(await storage(all))).map((j) => j.key)).toEqual([kept]);
    expect(await (await storage('/jobq/32/count?state=deleted')).text()).toBe('0');
    expect((await lines(await storage('/projects/jobsummaries'))).flat().find((s) => s.project === 32)).toMatchObject({ finished: 1, pending: 0 });
    // Purging again, or a job that never was, is nothing to do (the original's deletes never 404).
    expect((await storage(`/jobs/${key}`, { method: 'DELETE' })).status).toBe(200);
    expect((await storage('/jobs/32/1/99', { method: 'DELETE' })).status).toBe(200);
    expect((await push(32, { spider: 'gone' })).key).toBe('32/1/3');
  });

  it('records the dash URL the job was scheduled through as its api_url', async () => {
    const res = await fetch(`${p.dashUrl}/run.json`, { method: 'POST', body: new URLSearchParams({ project: '33', spider: 'meta' }), headers: { authorization: auth } });
    const { jobid } = (await res.json()) as { jobid: string };
    expect(JSON.parse(await (await storage(`/jobs/${jobid}`)).text())).toMatchObject({ api_url: `${p.dashUrl}/` });
  });

  it('lists jobs in JobQ with the fields of the original\'s job summaries: state times, tags, version, close reason, record counts', async () => {
    const { key } = await push(34, { spider: 'summary', tags: ['t1'], version: 'v1' });
    await storage('/jobq/34/startjob', { method: 'POST' });
    const write = (kind: string, body: string) => storage(`/${kind}/${key}`, { method: 'POST', body });
    expect((await write('items', '{"n": 1}\n{"n": 2}\n')).status).toBe(200);
    expect((await write('logs', `{"time": ${Date.now()}, "level": 40, "message": "boom"}\n{"time": ${Date.now()}, "level": 20, "message": "fine"}\n`)).status).toBe(200);
    expect((await write('requests', `{"url": "http://127.0.0.1/", "status": 200, "method": "GET", "rs": 10, "duration": 5, "time": ${Date.now()}}\n`)).status).toBe(200);
    await update(34, { key, state: 'finished', close_reason: 'finished' });
    const [entry] = await lines(await storage('/jobq/34/list'));
    expect(entry).toMatchObject({ key, state: 'finished', spider: 'summary', tags: ['t1'], version: 'v1', close_reason: 'finished', items: 2, pages: 1, logs: 2, errors: 1 });
    for (const field of ['ts', 'elapsed', 'pending_time', 'running_time', 'finished_time']) expect(typeof entry[field]).toBe('number');
    // The same entries in the summaries; a pending job has not written anything.
    const pending = (await push(34, { spider: 'summary' })).key;
    const summary = await lines(await storage('/jobq/34/summary'));
    expect(summary.find((s) => s.name === 'finished').summary[0]).toEqual({ ...entry, elapsed: expect.any(Number) });
    expect(summary.find((s) => s.name === 'pending').summary[0]).toEqual({ key: pending, state: 'pending', spider: 'summary', elapsed: expect.any(Number), ts: expect.any(Number), pending_time: expect.any(Number) });
  });

  it('keeps listing a collection emptied of its records, until it is deleted', async () => {
    expect((await storage('/collections/35/s/emptied', { method: 'POST', body: '{"_key": "a", "v": 1}' })).status).toBe(200);
    expect((await storage('/collections/35/s/emptied/a', { method: 'DELETE' })).status).toBe(200);
    expect(await (await storage('/collections/35/s/emptied')).text()).toBe('');
    expect(await lines(await storage('/collections/35/list'))).toEqual([{ type: 's', name: 'emptied' }]);
    expect((await storage('/collections/35/delete?name=emptied', { method: 'POST' })).status).toBe(202);
    expect(await lines(await storage('/collections/35/list'))).toEqual([]);
  });
});
