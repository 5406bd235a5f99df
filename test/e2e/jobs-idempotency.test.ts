import { basic, expectReplayKeepsReads, startTestPlatform, TestPlatform } from '../support/platform';

jest.setTimeout(60_000);

/**
 * Sending a job-creating request again with the same Idempotency-Key (run.json, jobq push)
 * answers what the first one did and creates no second job: after a 503 that came once the
 * first request was stored (the projector away), after a cut connection, or when both copies
 * race. On the lane's log and view store.
 */
describe('jobs: a request sent again with its Idempotency-Key', () => {
  let p: TestPlatform;
  let auth: string;
  beforeAll(async () => {
    // A short read-your-writes bound: the 503 of a stopped projector comes in a second.
    p = await startTestPlatform({ READ_YOUR_WRITES_TIMEOUT_MS: '1000' });
    auth = basic(p.adminKey);
  });
  afterAll(() => p?.stop());

  const run = (form: Record<string, string>, idempotencyKey?: string, key = auth) =>
    fetch(`${p.dashUrl}/run.json`, {
      method: 'POST',
      body: new URLSearchParams(form),
      headers: { authorization: key, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    });
  const push = async (project: number, body: Record<string, unknown>, idempotencyKey: string) => {
    const res = await fetch(`${p.storageUrl}/jobq/${project}/push`, { method: 'POST', body: JSON.stringify(body), headers: { authorization: auth, 'idempotency-key': idempotencyKey } });
    expect(res.status).toBe(200);
    return JSON.parse((await res.text()).trim());
  };
  const jobsOf = async (project: number, spider: string) =>
    ((await (await fetch(`${p.dashUrl}/jobs/list.json?project=${project}&spider=${spider}`, { headers: { authorization: auth } })).json()) as { jobs: { id: string; state: string }[] }).jobs;

  it('run.json: the same key answers the same job again, where a plain second request is refused as already scheduled', async () => {
    const first = await run({ project: '40', spider: 'alpha', arg: '1' }, 'run-alpha-1');
    const again = await run({ project: '40', spider: 'alpha', arg: '1' }, 'run-alpha-1');
    const plain = await run({ project: '40', spider: 'alpha', arg: '1' });
    expect(first.status).toBe(200);
    const { jobid } = (await first.json()) as { jobid: string };
    expect(await again.json()).toEqual({ status: 'ok', jobid });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toEqual({ status: 'error', message: 'alpha already scheduled' });
    expect((await jobsOf(40, 'alpha')).map((j) => j.id)).toEqual([jobid]);
  });

  it('jobq push: copies racing each other make one job, and every copy answers its key', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => push(41, { spider: 'beta' }, 'push-beta')));
    expect(new Set(answers.map((a) => a.key))).toEqual(new Set(['41/1/1']));
    expect((await jobsOf(41, 'beta')).map((j) => j.id)).toEqual(['41/1/1']);
    // A new key is a new request.
    expect((await push(41, { spider: 'beta' }, 'push-beta-2')).key).toBe('41/1/2');
  });

  it('answered 503 while the projector was away, the request sent again after it is back gets the stored job, once', async () => {
    await p.projector!.stop();
    const refused = await run({ project: '42', spider: 'gamma' }, 'run-gamma');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    const refusedAgain = await run({ project: '42', spider: 'gamma' }, 'run-gamma');
    expect(refusedAgain.status).toBe(503);
    await p.projector!.start();
    const retried = await run({ project: '42', spider: 'gamma' }, 'run-gamma');
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({ status: 'ok', jobid: '42/1/1' });
    expect((await jobsOf(42, 'gamma')).map((j) => j.id)).toEqual(['42/1/1']);
    // Replay folds the log's facts to the same jobs (`elapsed` aside, which moves with the clock).
    await expectReplayKeepsReads(p, async (project) => JSON.stringify((await jobsOf(project, 'gamma')).map(({ id, state }) => ({ id, state }))), [42]);
  });

  it("one key's Idempotency-Key never answers another key's request", async () => {
    const other = basic(await p.createKey([43]));
    const mine = await run({ project: '43', spider: 'delta', a: '1' }, 'shared-name');
    const theirs = await run({ project: '43', spider: 'delta', a: '2' }, 'shared-name', other);
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    expect(((await theirs.json()) as { jobid: string }).jobid).not.toBe(((await mine.json()) as { jobid: string }).jobid);
  });

  it('refuses a malformed Idempotency-Key in the dash style, creating nothing', async () => {
    const res = await run({ project: '44', spider: 'eps' }, 'not a key!');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: 'error', message: 'Idempotency-Key must be 1 to 128 letters, digits, dots, underscores, colons or hyphens' });
    expect(await jobsOf(44, 'eps')).toEqual([]);
  });
});
