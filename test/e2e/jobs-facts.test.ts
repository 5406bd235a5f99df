import { createEvent, JOBS_DECIDED, JOBS_REQUESTED_TYPES, JOBS_TOPIC, JobPushRequest, JobsDecided, JobsRequest, JobsRequested, jobsRequestedType } from '@crawlhub/contracts';
import * as decideModule from '../../libs/jobs/src/domain/decide-jobs';
import { auditEntries } from '@crawlhub/jobs';
import { auditJsonWithoutViews, auditWithoutViews, factsPerRequest, replayViews, upgradeLogBeforeFacts } from '../support/decision-facts';
import { projectStream } from '../support/jobs-stream';
import { basic, startTestPlatform, TestPlatform } from '../support/platform';
import { systemStamps } from '../support/stamps';

jest.setTimeout(240_000);

/** How many facts each request of the project has in the log, in log order. */
async function jobFacts(p: TestPlatform, project: number): Promise<number[]> {
  return factsPerRequest(await projectStream(p.core.eventLog, project), JOBS_REQUESTED_TYPES, JOBS_DECIDED);
}

/**
 * A decider that takes other decisions than the real one: it refuses every push and hands
 * out no job. Switched on in this process only, where the projector (and the decider) run.
 */
function switchDeciderBehaviour(): jest.SpyInstance {
  return jest.spyOn(decideModule, 'decideJobs').mockImplementation(async (_state, _ctx, request) => {
    const effects = { spiders: [], jobs: [], activity: [] };
    if (request.op === 'push') return { outcome: { op: 'push', key: '', error: 'the changed decider refuses every push', state: request.state }, effects };
    if (request.op === 'start') return { outcome: { op: 'start', key: null }, effects };
    return { outcome: { op: 'cancel', count: 0 }, effects } as decideModule.JobsDecision;
  });
}

/**
 * Job decisions are facts in the log (issue 17, "The log"): replay and audit read what was
 * decided, never what today's decider would decide; a log written before decisions were
 * facts is decided once, on replay, and its facts appended. On the lane's log and views.
 */
describe('jobs: decisions are facts', () => {
  let p: TestPlatform;
  let auth: string;
  beforeAll(async () => {
    p = await startTestPlatform();
    auth = basic(p.adminKey);
  });
  afterAll(() => p?.stop());
  afterEach(() => jest.restoreAllMocks());

  const storage = (path: string, init: RequestInit = {}) => fetch(`${p.storageUrl}${path}`, { ...init, headers: { authorization: auth, ...(init.headers ?? {}) } });
  const dash = (path: string, form?: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
    return fetch(`${p.dashUrl}${path}`, form ? { method: 'POST', body, headers: { authorization: auth } } : { headers: { authorization: auth } });
  };
  /** An answer's text, without `elapsed` (time since the job's last change: it grows between two reads). */
  const text = async (res: Response | Promise<Response>) => (await (await res).text()).replace(/("elapsed": ?)\d+/g, (_, field: string) => `${field}0`);
  const post = (path: string, body: unknown) => text(storage(path, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) }));

  it('replays to the same views and answers after the decider changed, and audit is unchanged', async () => {
    // A history with every kind of decision: numbers, a refusal, claims, state changes, a refused change, cancels, tags, settings.
    const answers: string[] = [];
    answers.push(await post('/jobq/41/push', { spider: 'alpha', unique: 'u1' }));
    answers.push(await post('/jobq/41/push', { spider: 'alpha', unique: 'u1' }));
    answers.push(await post('/jobq/41/push', { spider: 'beta', priority: 3 }));
    answers.push(await text(dash('/run.json', { project: '41', spider: 'alpha', arg1: 'v1', add_tag: ['a', 'b'] })));
    answers.push(await post('/jobq/41/push', { spider: 'alpha' }));
    answers.push(await post('/jobq/41/startjob', { started_by: 'jobrunner' }));
    answers.push(await post('/jobq/41/startjob', {}));
    answers.push(await post('/jobq/41/update', { key: '41/2/1', state: 'finished', close_reason: 'finished' }));
    answers.push(await post('/jobq/41/update', { key: '41/2/1', state: 'running' }));
    answers.push(await post('/jobq/41/cancel', [{ key: '41/1/4' }]));
    answers.push(await text(dash('/jobs/update.json', { project: '41', job: '41/1/3', add_tag: 'c', remove_tag: 'a' })));
    answers.push(await post('/projects/41/settings', { botgroups: ['g1'] }));
    expect(answers.slice(0, 3).map((a) => JSON.parse(a))).toEqual([
      expect.objectContaining({ key: '41/1/1' }),
      { request: { spider: 'alpha', unique: 'u1' }, error: 'Active job exists with key u1' },
      expect.objectContaining({ key: '41/2/1' }),
    ]);

    const reads = [
      '/jobq/41/list?state=pending&state=running&state=finished&jobmeta=tags&jobmeta=state&jobmeta=close_reason',
      '/jobq/41/count?state=pending',
      '/jobq/41/summary',
      '/jobs/41/1/1',
      '/jobs/41/1/3',
      '/jobs/41/2/1',
      '/jobs/41/1/4',
      '/activity/41?count=100',
      '/projects/41/settings',
    ];
    const dashReads = ['/jobs/list.json?project=41', '/jobs/count.json?project=41&state=finished', '/spiders/list.json?project=41'];
    const readAll = async () => [...(await Promise.all(reads.map((r) => text(storage(r))))), ...(await Promise.all(dashReads.map((r) => text(dash(r)))))];
    const before = await readAll();
    const auditBefore = await auditEntries(p.core.eventLog, { project: 41, job: null });
    const jobAuditBefore = await auditEntries(p.core.eventLog, { project: 41, job: '41/2/1' });
    expect(auditBefore.filter((a) => a.deciderVersion !== undefined)).toHaveLength(12);
    expect(jobAuditBefore.map((a) => a.jobs?.find((j) => j.key === '41/2/1')?.state)).toEqual(['pending', 'running', 'finished']);

    const changed = switchDeciderBehaviour();
    await replayViews(p);
    expect(changed).not.toHaveBeenCalled();
    expect(await readAll()).toEqual(before);
    expect(before.every((b) => b.length > 0)).toBe(true);
    expect(await auditEntries(p.core.eventLog, { project: 41, job: null })).toEqual(auditBefore);
    expect(await auditEntries(p.core.eventLog, { project: 41, job: '41/2/1' })).toEqual(jobAuditBefore);

    // Audit reads the log alone: the same with every view deleted, through the CLI too (text and --json).
    expect(await auditJsonWithoutViews(p, '41/2/1')).toEqual(JSON.parse(JSON.stringify(jobAuditBefore)));
    expect(await auditEntries(p.core.eventLog, { project: 41, job: null })).toEqual(auditBefore);
    const lines = await auditWithoutViews(p, ['41']);
    expect(lines.code).toBe(0);
    const pushLine = lines.out.split('\n').find((l) => l.includes('jobs.decided') && l.includes('"unique":"u1"') && l.includes('Active job exists'));
    expect(pushLine).toMatch(new RegExp(` by key:key-\\w+  correlation [\\w-]+  caused by [\\w-]+  decider v${decideModule.JOBS_DECIDER_VERSION} `));
    expect((await auditWithoutViews(p, ['41/x'])).code).toBe(2);
    await replayViews(p);
    expect(await readAll()).toEqual(before);

    // The switch is live: a new request is decided by the changed rules, the history stays.
    expect(JSON.parse(await post('/jobq/41/push', { spider: 'alpha' }))).toEqual({ request: { spider: 'alpha' }, error: 'the changed decider refuses every push' });
    expect(changed).toHaveBeenCalledTimes(1);
    expect((await readAll()).slice(0, 7)).toEqual(before.slice(0, 7));
  });

  it('decides the requests of a log written before decisions were facts once, on replay, and appends their facts', async () => {
    // The current release's log: request events as its handler appends them (this change
    // keeps their type, version and data), no fact. No decider runs while they are written.
    await p.projector!.stop();
    const request = (r: JobsRequest) => {
      const data: JobsRequested = { requestId: `legacy-${Math.random()}`, project: 51, request: r };
      return createEvent({ type: jobsRequestedType(r.op), key: '51', data, actor: { kind: 'key', id: 'key-legacy00000' } }, systemStamps);
    };
    const push = (spider: string, o: Partial<JobPushRequest> = {}): JobsRequest => ({
      op: 'push', spider, priority: 2, units: 1, tags: [], spiderArgs: {}, jobSettings: null, meta: {}, unique: null, refuseDuplicateArgs: false, state: 'pending', spiderType: 'manual', by: 'legacy', fire: null, ...o,
    });
    for (const r of [
      push('a'),
      push('a', { unique: 'u' }),
      push('a', { unique: 'u' }),
      push('b', { priority: 4 }),
      { op: 'start', maxUnits: null, maxRunning: null, spiders: [], fields: {}, by: 'jobrunner' },
      { op: 'update', updates: [{ key: '51/2/1', state: 'finished', fields: { close_reason: 'finished' } }], by: 'jobrunner' },
    ] as JobsRequest[]) {
      await p.core.eventLog.append(JOBS_TOPIC, [request(r)]);
    }
    expect(await jobFacts(p, 51)).toEqual([0, 0, 0, 0, 0, 0]);

    // The views of that release kept its decisions in job_outcomes: the decider does not decide on them; replay decides what has no fact, once, in log order.
    const oldViews = { sqlite: `CREATE TABLE job_outcomes (request_id TEXT PRIMARY KEY, decision TEXT NOT NULL); INSERT INTO job_outcomes VALUES ('old', '{}')`, mongodb: { collection: 'job_outcomes', _id: 'old' } };
    await upgradeLogBeforeFacts(p, oldViews, () => jobFacts(p, 51));
    const facts = (await projectStream(p.core.eventLog, 51)).filter((e) => e.event.type === JOBS_DECIDED).map((e) => e.event.data as JobsDecided);
    expect(facts.map((f) => (f.decision as decideModule.JobsDecision).outcome)).toEqual([
      { op: 'push', key: '51/1/1', error: null, state: 'pending' },
      { op: 'push', key: '51/1/2', error: null, state: 'pending' },
      { op: 'push', key: '51/1/3', error: 'Active job exists with key u', state: 'pending' },
      { op: 'push', key: '51/2/1', error: null, state: 'pending' },
      { op: 'start', key: '51/2/1' },
      { op: 'update', lines: [{ prevstate: 'running', key: '51/2/1' }], errors: [] },
    ]);
    await p.projector!.start();
    const reads = ['/jobq/51/list?state=pending&state=finished&jobmeta=state&jobmeta=close_reason', '/jobs/51/2/1', '/activity/51?count=10'];
    const readAll = () => Promise.all(reads.map((r) => text(storage(r))));
    const after = await readAll();
    expect(after[0].split('\n').filter(Boolean).map((l) => JSON.parse(l).key)).toEqual(['51/2/1', '51/1/2', '51/1/1']);
    expect(JSON.parse(after[1])).toMatchObject({ state: 'finished', close_reason: 'finished', started_by: 'jobrunner' });

    // Decided once: the live decider (running again) and another replay add no fact, and answer the same.
    await post('/jobq/52/push', { spider: 'other' }); // the decider has run past the legacy requests
    await replayViews(p);
    expect(await jobFacts(p, 51)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(await readAll()).toEqual(after);
  });
});
