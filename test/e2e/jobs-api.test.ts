import { jobToken } from '@crawlhub/jobs';
import { basic, expectReplayKeepsReads, startTestPlatform, TestPlatform } from '../support/platform';

jest.setTimeout(60_000);

/** Job control (dash) and JobQ (storage) end to end, on the lane's log and view store. */
describe('jobs: JobQ and job control', () => {
  let p: TestPlatform;
  let auth: string;
  beforeAll(async () => {
    p = await startTestPlatform();
    auth = basic(p.adminKey);
  });
  afterAll(() => p?.stop());

  const storage = (path: string, init: RequestInit = {}) => fetch(`${p.storageUrl}${path}`, { ...init, headers: { authorization: auth, ...(init.headers ?? {}) } });
  const dash = (path: string, form?: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
    return fetch(`${p.dashUrl}${path}`, form ? { method: 'POST', body, headers: { authorization: auth } } : { headers: { authorization: auth } });
  };
  const jl = async (res: Response) => (await res.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const push = async (project: number, body: Record<string, unknown>) => (await jl(await storage(`/jobq/${project}/push`, { method: 'POST', body: JSON.stringify(body) })))[0];

  it('numbers jobs per spider, never reusing a number, and refuses an active unique key', async () => {
    const a = await push(10, { spider: 'alpha' });
    const b = await push(10, { spider: 'alpha', unique: 'u1' });
    const refused = await push(10, { spider: 'alpha', unique: 'u1' });
    const c = await push(10, { spider: 'beta' });
    const d = await push(10, { spider: 'alpha' });
    expect([a.key, b.key, c.key, d.key]).toEqual(['10/1/1', '10/1/2', '10/2/1', '10/1/4']);
    expect(a.auth).toBeNull();
    expect(refused).toEqual({ request: { spider: 'alpha', unique: 'u1' }, error: 'Active job exists with key u1' });
    const meta = await (await storage('/jobs/10/1/2')).text();
    expect(JSON.parse(meta)).toMatchObject({ state: 'pending', priority: 2, units: 1, spider: 'alpha', project: 10, tags: [] });
    expect(meta).toContain('"state": "pending"');
  });

  it('hands pending jobs to runners by priority, then first pushed, with a job token', async () => {
    await push(11, { spider: 's', priority: 1 });
    await push(11, { spider: 's', priority: 3 });
    await push(11, { spider: 's', priority: 3 });
    const order = [];
    for (let i = 0; i < 3; i++) order.push((await jl(await storage('/jobq/11/startjob', { method: 'POST', body: '{}' })))[0]);
    expect(order.map((j) => j.key)).toEqual(['11/1/2', '11/1/3', '11/1/1']);
    expect(order[0].state).toBe('running');
    expect(order[0].auth.split('.')).toHaveLength(3);
    // The original's payload names the job; crawlhub's also names the run (see the next tests).
    expect(JSON.parse(Buffer.from(order[0].auth.split('.')[1], 'base64url').toString())).toEqual({ aud: 'job:11/1/2', run: expect.any(Number) });
    expect(await (await storage('/jobq/11/startjob', { method: 'POST' })).text()).toBe('');
  });

  it('records the job lifecycle in the project activity, newest first', async () => {
    await push(17, { spider: 'act' });
    await storage('/jobq/17/startjob', { method: 'POST', body: JSON.stringify({ started_by: 'jobrunner' }) });
    await storage('/jobq/17/update', { method: 'POST', body: JSON.stringify({ key: '17/1/1', state: 'finished', close_reason: 'finished' }) });
    const events = await jl(await storage('/activity/17'));
    expect(events.map((e) => [e.event, e.job])).toEqual([['job:completed', '17/1/1'], ['job:started', '17/1/1'], ['job:scheduled', '17/1/1']]);
    expect(events[1].user).toBe('jobrunner');
  });

  it('lets a running job write its own data with its token, and nothing else', async () => {
    await push(16, { spider: 'tok' });
    await push(16, { spider: 'tok' });
    const job = (await jl(await storage('/jobq/16/startjob', { method: 'POST' })))[0];
    const asJob = { authorization: `Basic ${Buffer.from(`${job.key}:${job.auth}`).toString('base64')}` };
    const write = (path: string, body: string) => fetch(`${p.storageUrl}${path}`, { method: 'POST', body, headers: asJob });
    expect((await write(`/items/${job.key}`, '{"by":"job"}\n')).status).toBe(200);
    expect((await write(`/jobs/${job.key}`, '{"close_reason":"finished"}')).status).toBe(200);
    expect((await write('/items/16/1/2', '{"by":"job"}\n')).status).toBe(403);
    expect((await fetch(`${p.storageUrl}/items/16/1`, { headers: asJob })).status).toBe(403);
    expect((await fetch(`${p.storageUrl}/jobq/16/list`, { headers: asJob })).status).toBe(403);
    const forged = { authorization: `Basic ${Buffer.from(`16/1/2:${job.auth}`).toString('base64')}` };
    expect((await fetch(`${p.storageUrl}/items/16/1/2`, { method: 'POST', body: '{}\n', headers: forged })).status).toBe(401);
    await storage('/jobq/16/update', { method: 'POST', body: JSON.stringify({ key: job.key, state: 'finished' }) });
    expect((await write(`/items/${job.key}`, '{"late":true}\n')).status).toBe(401);
    expect((await (await storage(`/items/${job.key}`)).text()).trim()).toBe('{"by":"job"}');
  });

  it('refuses to bring a finished job back to running, so its token stays dead', async () => {
    await push(25, { spider: 'zombie' });
    const job = (await jl(await storage('/jobq/25/startjob', { method: 'POST' })))[0];
    const asJob = { authorization: `Basic ${Buffer.from(`${job.key}:${job.auth}`).toString('base64')}` };
    const write = (body: string) => fetch(`${p.storageUrl}/items/${job.key}`, { method: 'POST', body, headers: asJob });
    const update = (body: Record<string, unknown>) => storage('/jobq/25/update', { method: 'POST', body: JSON.stringify(body) });
    expect((await write('{"n":1}\n')).status).toBe(200);
    expect((await update({ key: job.key, state: 'finished', close_reason: 'finished' })).status).toBe(200);
    expect((await write('{"n":2}\n')).status).toBe(401);

    // finished → running, and finished → pending, are refused in the storage API's style; nothing changes.
    for (const state of ['running', 'pending']) {
      const res = await update({ key: job.key, state, note: 'revived' });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
      expect(await res.text()).toBe(`job ${job.key} is finished: it cannot become ${state}\n`);
    }
    const meta = JSON.parse(await (await storage(`/jobs/${job.key}`)).text());
    expect(meta).toMatchObject({ state: 'finished', close_reason: 'finished' });
    expect(meta).not.toHaveProperty('note');
    expect((await write('{"n":3}\n')).status).toBe(401);
    expect((await (await storage(`/items/${job.key}`)).text()).trim()).toBe('{"n":1}');
  });

  it('honours a token only for the run it was issued for', async () => {
    await push(26, { spider: 'runs' });
    const job = (await jl(await storage('/jobq/26/startjob', { method: 'POST' })))[0];
    const payload = JSON.parse(Buffer.from(job.auth.split('.')[1], 'base64url').toString());
    expect(payload).toEqual({ aud: `job:${job.key}`, run: expect.any(Number) });
    // A token of another run of the same job (signed with the platform's secret, as a replayed or older token would be).
    const otherRun = await jobToken({ key: job.key, run: payload.run + 1 }, p.core.jobTokenSecret);
    const asJob = (token: string) => ({ authorization: `Basic ${Buffer.from(`${job.key}:${token}`).toString('base64')}` });
    expect((await fetch(`${p.storageUrl}/items/${job.key}`, { method: 'POST', body: '{}\n', headers: asJob(otherRun) })).status).toBe(401);
    expect((await fetch(`${p.storageUrl}/items/${job.key}`, { method: 'POST', body: '{}\n', headers: asJob(job.auth) })).status).toBe(200);
    // Setting it to running again changes no run: the token still works.
    expect(await jl(await storage('/jobq/26/update', { method: 'POST', body: JSON.stringify({ key: job.key, state: 'running', progress: 1 }) }))).toEqual([
      { prevstate: 'running', key: job.key },
    ]);
    expect((await fetch(`${p.storageUrl}/items/${job.key}`, { method: 'POST', body: '{}\n', headers: asJob(job.auth) })).status).toBe(200);
  });

  it('refuses the state changes the original does not allow, all or nothing, in each API style', async () => {
    await push(27, { spider: 'moves' });
    await push(27, { spider: 'moves' });
    await storage('/jobq/27/startjob', { method: 'POST' });
    // running → pending is refused; the valid line beside it is not applied either.
    const res = await storage('/jobq/27/update', { method: 'POST', body: '{"key": "27/1/2", "state": "finished"}\n{"key": "27/1/1", "state": "pending"}' });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('job 27/1/1 is running: it cannot become pending\n');
    expect(JSON.parse(await (await storage('/jobs/27/1/2')).text()).state).toBe('pending');
    expect(JSON.parse(await (await storage('/jobs/27/1/1')).text()).state).toBe('running');
    // The dash API: deleting a finished and a pending job deletes neither.
    await storage('/jobq/27/update', { method: 'POST', body: '{"key": "27/1/1", "state": "finished"}' });
    const del = await dash('/jobs/delete.json', { project: '27', job: ['27/1/1', '27/1/2'] });
    expect(del.status).toBe(400);
    expect(await del.json()).toEqual({ status: 'error', message: 'job 27/1/2 is pending: only finished jobs can be deleted' });
    expect(JSON.parse(await (await storage('/jobs/27/1/1')).text()).state).toBe('finished');
  });

  it('limits a project\'s running jobs to its botgroups\' max_running, set by the admin key only', async () => {
    const botgroup = (name: string, init: RequestInit = {}, key = auth) => fetch(`${p.storageUrl}/botgroups/${name}${init.method === 'DELETE' ? '' : '/max_running'}`, { ...init, headers: { authorization: key } });
    expect(await (await botgroup('solo')).text()).toBe('null');
    expect((await botgroup('solo', { method: 'POST', body: '1' })).status).toBe(200);
    expect(await (await botgroup('solo')).text()).toBe('1');
    const projectKey = basic(await p.createKey([28]));
    expect((await botgroup('solo', { method: 'POST', body: '5' }, projectKey)).status).toBe(403);
    for (const bad of ['0', '1.5', '"2"', '{bad']) expect((await botgroup('solo', { method: 'POST', body: bad })).status).toBe(400);
    expect((await botgroup('bad%20name', { method: 'POST', body: '1' })).status).toBe(400);

    await storage('/projects/28/settings', { method: 'POST', body: JSON.stringify({ botgroups: ['solo', 'unknown'] }) });
    await push(28, { spider: 'capped' });
    await push(28, { spider: 'capped' });
    const first = await jl(await storage('/jobq/28/startjob', { method: 'POST' }));
    expect(first.map((j) => j.key)).toEqual(['28/1/1']);
    expect(await (await storage('/jobq/28/startjob', { method: 'POST' })).text()).toBe('');
    await storage('/jobq/28/update', { method: 'POST', body: '{"key": "28/1/1", "state": "finished"}' });
    expect((await jl(await storage('/jobq/28/startjob', { method: 'POST' }))).map((j) => j.key)).toEqual(['28/1/2']);
    // No limit (null), or no botgroup: claims are not limited.
    await push(28, { spider: 'capped' });
    expect((await botgroup('solo', { method: 'POST', body: 'null' })).status).toBe(200);
    expect((await jl(await storage('/jobq/28/startjob', { method: 'POST' }))).map((j) => j.key)).toEqual(['28/1/3']);
    expect((await botgroup('solo', { method: 'DELETE' })).status).toBe(200);
    expect(await (await botgroup('solo')).text()).toBe('null');
  });

  it('shows one metadata document: per field, the later of a client write and a platform change wins', async () => {
    await push(18, { spider: 'meta', tags: ['a'] });
    const meta = async () => JSON.parse(await (await storage('/jobs/18/1/1')).text());
    // The official client saves by posting back everything it read.
    await storage('/jobs/18/1/1', { method: 'POST', body: JSON.stringify({ ...(await meta()), close_reason: 'all-good', note: 'mine' }) });
    expect(await meta()).toMatchObject({ tags: ['a'], close_reason: 'all-good', note: 'mine' });
    await dash('/jobs/update.json', { project: '18', job: '18/1/1', add_tag: 'b' });
    await storage('/jobq/18/update', { method: 'POST', body: JSON.stringify({ key: '18/1/1', state: 'finished', close_reason: 'failed' }) });
    expect(await meta()).toMatchObject({ tags: ['a', 'b'], close_reason: 'failed', state: 'finished', note: 'mine' });
    await storage('/jobs/18/1/1/close_reason', { method: 'DELETE' });
    expect(await meta()).not.toHaveProperty('close_reason');
  });

  it('lists finished jobs by default, newest first, and filters by state, spider, tags and keys', async () => {
    await push(12, { spider: 'x', tags: ['t1'] });
    await push(12, { spider: 'x', tags: ['t2'] });
    await push(12, { spider: 'y', tags: ['t1', 't2'] });
    const upd = await jl(await storage('/jobq/12/update', { method: 'POST', body: '{"key": "12/1/1", "state": "finished", "close_reason": "finished"}\n{"key": "12/2/1", "state": "finished"}' }));
    expect(upd).toEqual([{ prevstate: 'pending', key: '12/1/1' }, { prevstate: 'pending', key: '12/2/1' }]);
    const listed = await jl(await storage('/jobq/12/list'));
    expect(listed.map((j) => j.key)).toEqual(['12/2/1', '12/1/1']);
    expect(listed[1]).toMatchObject({ state: 'finished', spider: 'x', close_reason: 'finished' });
    expect(typeof listed[1].finished_time).toBe('number');
    const keys = async (q: string) => (await jl(await storage(`/jobq/12/list?${q}`))).map((j) => j.key);
    // Newest first by the time a job entered its current state: the two just finished lead.
    expect(await keys('state=pending&state=finished&spider=x')).toEqual(['12/1/1', '12/1/2']);
    expect(await keys('state=pending&state=finished&has_tag=t2')).toEqual(['12/2/1', '12/1/2']);
    expect(await keys('state=pending&state=finished&lacks_tag=t1&lacks_tag=t9')).toEqual(['12/1/2']);
    expect(await keys('state=pending&state=finished&key=12/1/1&key=12/1/2')).toEqual(['12/1/1', '12/1/2']);
    expect(await keys('state=pending&state=finished&stop=12/1/2')).toEqual(['12/2/1', '12/1/1']);
    expect(await keys('state=pending&state=finished&count=1&start=1')).toEqual(['12/1/1']);
    expect(await (await storage('/jobq/12/count')).text()).toBe('2');
    expect(await (await storage('/jobq/12/count?state=pending&state=finished')).text()).toBe('3');
    const summary = await jl(await storage('/jobq/12/summary'));
    expect(summary.map((s) => [s.name, s.count, s.summary.length])).toEqual([['pending', 1, 1], ['running', 0, 0], ['finished', 2, 2]]);
    expect((await storage('/jobq/12/list?state=bogus')).status).toBe(400);
  });

  it('filters the dash job list by time range too, with spider, state and tag, newest first and paginated', async () => {
    for (const spider of ['a', 'b', 'a']) {
      await push(41, { spider, tags: ['t'] });
      await new Promise((r) => setTimeout(r, 5));
    }
    const pending = await jl(await storage('/jobq/41/list?state=pending'));
    const ts = Object.fromEntries(pending.map((j) => [j.key, j.ts as number]));
    const ids = async (q: string) => ((await (await dash(`/jobs/list.json?project=41&${q}`)).json()) as { jobs: { id: string }[] }).jobs.map((j) => j.id);
    expect(await ids('')).toEqual(['41/1/2', '41/2/1', '41/1/1']);
    expect(await ids(`startts=${ts['41/2/1']}`)).toEqual(['41/1/2', '41/2/1']);
    expect(await ids(`endts=${ts['41/2/1']}`)).toEqual(['41/2/1', '41/1/1']);
    expect(await ids(`startts=${ts['41/1/1']}&endts=${ts['41/2/1']}&spider=a&state=pending&has_tag=t`)).toEqual(['41/1/1']);
    expect(await ids('count=1&offset=1')).toEqual(['41/2/1']);
    expect(await (await dash(`/jobs/count.json?project=41&startts=${ts['41/2/1']}`)).json()).toEqual({ status: 'ok', total: 2 });
    expect((await dash('/jobs/list.json?project=41&startts=soon')).status).toBe(400);
  });

  it('cancels: a pending job finishes at once, a running one gets a stop request', async () => {
    await push(13, { spider: 'c' });
    await push(13, { spider: 'c' });
    await storage('/jobq/13/startjob', { method: 'POST' });
    const res = await storage('/jobq/13/cancel', { method: 'POST', body: JSON.stringify([{ key: '13/1/1' }, { key: '13/1/2' }, { key: '13/1/99' }]) });
    expect(await res.json()).toEqual({ count: 2 });
    const first = JSON.parse(await (await storage('/jobs/13/1/1')).text());
    const second = JSON.parse(await (await storage('/jobs/13/1/2')).text());
    expect(first).toMatchObject({ state: 'running', stop_requested: true });
    expect(second).toMatchObject({ state: 'finished', close_reason: 'cancelled' });
  });

  it('runs, lists, tags, stops and deletes through the dash API', async () => {
    const run = await (await dash('/run.json', { project: '14', spider: 'dashy', arg1: 'v1', add_tag: ['a', 'b'], priority: '4', units: '2', job_settings: '{"DEPTH": 1}' })).json();
    expect(run).toEqual({ status: 'ok', jobid: '14/1/1' });
    const dup = await dash('/run.json', { project: '14', spider: 'dashy', arg1: 'v1' });
    expect(dup.status).toBe(400);
    expect(await dup.json()).toEqual({ status: 'error', message: 'dashy already scheduled' });
    expect(((await (await dash('/run.json', { project: '14', spider: 'dashy', arg1: 'other' })).json()) as { jobid: string }).jobid).toBe('14/1/3');
    expect((await dash('/run.json', { project: '14', spider: 'dashy', priority: '9' })).status).toBe(400);
    expect((await dash('/run.json', { project: '14', spider: 'dashy', units: '7' })).status).toBe(400);
    expect((await dash('/run.json', { project: '14', spider: 'dashy', job_settings: '{bad' })).status).toBe(400);
    const meta = JSON.parse(await (await storage('/jobs/14/1/1')).text());
    expect(meta).toMatchObject({ spider_args: { arg1: 'v1' }, priority: 4, units: 2, tags: ['a', 'b'], job_settings: { DEPTH: 1 } });

    const list = (await (await dash('/jobs/list.json?project=14')).json()) as { jobs: { id: string }[] };
    expect(list).toMatchObject({ status: 'ok', count: 2, total: 2 });
    expect(list.jobs.map((j: { id: string }) => j.id)).toEqual(['14/1/3', '14/1/1']);
    expect(list.jobs[1]).toMatchObject({ spider: 'dashy', state: 'pending', priority: 4, tags: ['a', 'b'], items_scraped: 0 });
    const jlText = await (await dash('/jobs/list.jl?project=14&count=1')).text();
    expect(JSON.parse(jlText.split('\n')[0])).toMatchObject({ status: 'ok' });
    expect(await (await dash('/jobs/count.json?project=14&state=pending')).json()).toEqual({ status: 'ok', total: 2 });

    expect(await (await dash('/jobs/update.json', { project: '14', job: '14/1/1', add_tag: 'c', remove_tag: 'a' })).json()).toEqual({ count: 1, status: 'ok' });
    expect(JSON.parse(await (await storage('/jobs/14/1/1/tags')).text())).toEqual(['b', 'c']);
    expect(await (await dash('/jobs/stop.json', { project: '14', job: '14/1/1' })).json()).toEqual({ status: 'ok' });
    expect(await (await dash('/jobs/delete.json', { project: '14', job: '14/1/1' })).json()).toEqual({ count: 1, status: 'ok' });
    expect(JSON.parse(await (await storage('/jobs/14/1/1')).text())).toMatchObject({ state: 'deleted', close_reason: 'cancelled' });
    expect((await dash('/jobs/delete.json', { project: '14', job: '14/1/3' })).status).toBe(400);
    expect(await (await dash('/spiders/list.json?project=14')).json()).toEqual({ spiders: [{ version: null, tags: [], id: 'dashy', type: 'manual' }], status: 'ok' });
  });

  it('tags spiders through the v2 API, and keeps project settings', async () => {
    expect(await (await storage('/ids/19/spider/tagged')).text()).toBe('null');
    expect(await (await storage('/ids/19/spider/tagged?create=1')).text()).toBe('1');
    const v2 = (path: string, init: RequestInit = {}) => fetch(`${p.dashUrl}/v2/projects/19/spiders/${path}`, { ...init, headers: { authorization: auth, 'content-type': 'application/json' } });
    expect((await v2('1/tags', { method: 'PATCH', body: JSON.stringify({ add: ['x', 'y'] }) })).status).toBe(200);
    await v2('1/tags', { method: 'PATCH', body: JSON.stringify({ remove: ['x'], add: ['z'] }) });
    expect(await (await v2('1')).json()).toEqual({ id: 1, name: 'tagged', tags: ['y', 'z'] });
    const empty = await v2('1/tags', { method: 'PATCH', body: '{}' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ non_field_errors: ['At least one of "add" or "remove" arguments must not be empty'] });
    expect((await v2('9/tags', { method: 'PATCH', body: JSON.stringify({ add: ['a'] }) })).status).toBe(404);
    expect(((await (await dash('/spiders/list.json?project=19')).json()) as { spiders: unknown[] }).spiders).toEqual([{ version: null, tags: ['y', 'z'], id: 'tagged', type: 'manual' }]);

    expect(await (await storage('/projects/19/settings')).text()).toBe('{}');
    await storage('/projects/19/settings', { method: 'POST', body: JSON.stringify({ default_job_units: 2, botgroups: ['a'] }) });
    await storage('/projects/19/settings/job_runtime_limit', { method: 'POST', body: '3600' });
    await storage('/projects/19/settings/botgroups', { method: 'DELETE' });
    expect(JSON.parse(await (await storage('/projects/19/settings')).text())).toEqual({ default_job_units: 2, job_runtime_limit: 3600 });
    expect(await (await storage('/projects/19/settings/default_job_units')).text()).toBe('2');
    expect((await storage('/projects/19/settings', { method: 'POST', body: '[1]' })).status).toBe(400);
  });

  it('keeps a key to its projects and answers bad input in each API style', async () => {
    const key = await p.createKey([15]);
    const other = await fetch(`${p.dashUrl}/run.json`, { method: 'POST', body: new URLSearchParams({ project: '14', spider: 'x' }), headers: { authorization: basic(key) } });
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({ status: 'error', message: 'Forbidden' });
    expect((await fetch(`${p.dashUrl}/run.json`, { method: 'POST', body: new URLSearchParams({ project: '15', spider: 'x' }) })).status).toBe(401);
    expect((await fetch(`${p.storageUrl}/jobq/15/push`, { method: 'POST', body: '{"spider": "x"}', headers: { authorization: basic(key) } })).status).toBe(200);
    expect((await storage('/jobq/15/push', { method: 'POST', body: '{"spider": 5}' })).status).toBe(400);
    expect((await storage('/jobq/15/push', { method: 'POST', body: '{bad' })).status).toBe(400);
    expect((await storage('/jobq/15/update', { method: 'POST', body: '{"key": "16/1/1", "state": "finished"}' })).status).toBe(400);
    expect((await dash('/run.json', { project: 'abc', spider: 'x' })).status).toBe(400);
  });

  it('rebuilds identical job views from the log (replay)', async () => {
    const reads = ['/jobq/12/list?state=pending&state=finished&jobmeta=tags&jobmeta=state', '/jobq/10/count?state=pending', '/jobs/14/1/1', '/jobq/13/summary'];
    const strip = (t: string) => t.replace(/"elapsed": \d+/g, '');
    await expectReplayKeepsReads(p, async (r) => strip(await (await storage(r)).text()), reads);
  });
});
