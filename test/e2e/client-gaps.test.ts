import { basic, startTestPlatform, TestPlatform } from '../support/platform';

jest.setTimeout(60_000);

/**
 * What the official Python client sends that crawlhub once refused or answered wrongly
 * (issue 15, measured with the client's own test suite): booleans spelled by Python, the
 * purge of a job its fixtures call, the dash URL in a scheduled job's metadata.
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
});
