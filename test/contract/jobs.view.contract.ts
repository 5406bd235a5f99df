import {
  createEvent, JOBS_DECIDED, JOBS_TOPIC, JOB_STATES, JobsDecided, JobCancelRequest, JobPushRequest, JobsRequest, JobsRequested, jobsRequestedType, JobStartRequest, JobState,
  JobTagsRequest, JobUpdate, RUNNER_HEARTBEAT, RunnerHeartbeat, SpiderRequest } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { decideJobs, JobsOutcome, LostJob } from '../../libs/jobs/src/domain/decide-jobs';
import { argsKeyOf, JobDoc, STATE_CHANGES } from '../../libs/jobs/src/domain/job';
import { JobsProjection, recordsOutcome } from '../../libs/jobs/src/events/jobs.projection';
import type { ActivityView } from '@crawlhub/activity';
import { JobFilter, JobsView } from '../../libs/jobs/src/ports/jobs.view';
import { eachViewFixture, ViewFixture, ViewHarness } from './view-fixture';
import { stampsAt, systemStamps } from '../support/stamps';

type Step = 'saveOutcome' | 'putSpiders' | 'putJobs';

/** Where a simulated crash stops an event: after this step of its apply. */
interface Crash {
  offset: number;
  after: Step;
}

/**
 * A fake `jobs` log partition whose requests are decided and folded in one step (the
 * decision recorded for the request, or the real rules', then saveOutcome, putSpiders,
 * putJobs, each event at the next offset, through the projection store's `applyBatch`):
 * what the decider and the fold of its fact (JobsProjection) do together, for the adapters'
 * reads and writes. The fold of real facts has its own test below.
 */
class JobsLog {
  private next = 0;
  private clock = 1_000_000;

  constructor(private readonly f: ViewFixture<JobsView>, private readonly partition = 0) {}

  /** The request as the next event of the partition, at `at` (default: one second after the previous one). */
  event(project: number, request: JobsRequest, at?: number): LoggedEvent {
    this.clock = at ?? this.clock + 1000;
    const data: JobsRequested = { requestId: `req-${this.partition}-${this.next}`, project, request };
    const event = createEvent({ type: jobsRequestedType(request.op), key: String(project), data, actor: { kind: 'system', id: 'contract' } }, stampsAt(this.clock));
    return { topic: JOBS_TOPIC, partition: this.partition, offset: this.next++, event };
  }

  async deliver(events: LoggedEvent[], crash?: Crash): Promise<void> {
    await this.f.store.applyBatch(JOBS_TOPIC, this.partition, events, (e) => this.apply(e, crash));
  }

  /** A runner's heartbeat for the project, as the next event of the partition. */
  heartbeat(project: number, runner: string, at?: number): LoggedEvent {
    this.clock = at ?? this.clock + 1000;
    const data: RunnerHeartbeat = { project, runner };
    const event = createEvent({ type: RUNNER_HEARTBEAT, key: String(project), data, actor: { kind: 'system', id: `runner:${runner}` } }, stampsAt(this.clock));
    return { topic: JOBS_TOPIC, partition: this.partition, offset: this.next++, event };
  }

  /** Delivers applied events again: through the checkpoint, and straight to a self-guarded adapter. */
  async replay(events: LoggedEvent[]): Promise<void> {
    await this.deliver(events);
    if (this.f.selfGuarded) for (const e of events) await this.apply(e);
  }

  /** Applies one request in its own batch and answers with its recorded outcome. */
  async request<O extends JobsOutcome>(project: number, request: JobsRequest, at?: number): Promise<O> {
    const e = this.event(project, request, at);
    await this.deliver([e]);
    return this.outcomeOf<O>(e);
  }

  async outcomeOf<O extends JobsOutcome>(e: LoggedEvent): Promise<O> {
    const decision = await this.f.view.outcome((e.event.data as JobsRequested).requestId);
    if (!decision) throw new Error(`no outcome for the event at offset ${e.offset}`);
    return decision.outcome as O;
  }

  get now(): number {
    return this.clock;
  }

  /** As the decider decides it and JobsProjection folds its fact, with the crash points. */
  private async apply(e: LoggedEvent, crash?: Crash): Promise<void> {
    const view = this.f.view;
    if (e.event.type === RUNNER_HEARTBEAT) {
      const h = e.event.data as RunnerHeartbeat;
      await view.putRunners(e, h.project, { put: [{ project: h.project, runner: h.runner, silentSince: null }], drop: [] });
      return;
    }
    const d = e.event.data as JobsRequested;
    const stop = (step: Step) => {
      if (crash && crash.offset === e.offset && crash.after === step) throw new Error('simulated crash');
    };
    const decision =
      (await view.outcome(d.requestId)) ?? (await decideJobs(view, { project: d.project, at: e.event.occurredAt, order: e.offset }, d.request));
    if (recordsOutcome(decision)) await view.saveOutcome(e, d.requestId, decision);
    stop('saveOutcome');
    await view.putSpiders(e, decision.effects.spiders);
    stop('putSpiders');
    await view.putJobs(e, decision.effects.jobs);
    stop('putJobs');
    if (decision.effects.settings) await view.putSettings(e, d.project, decision.effects.settings);
    const scrapy = decision.effects.scrapySettings;
    if (scrapy) await view.putScrapySettings(e, d.project, scrapy.spider, scrapy.settings);
    if (decision.effects.runners) await view.putRunners(e, d.project, decision.effects.runners);
  }
}

const push = (spider: string, o: Partial<JobPushRequest> = {}): JobPushRequest => ({
  op: 'push',
  spider,
  priority: 2,
  units: 1,
  tags: [],
  spiderArgs: {},
  jobSettings: null,
  meta: {},
  unique: null,
  refuseDuplicateArgs: false,
  state: 'pending',
  spiderType: 'manual',
  by: 'alice',
  fire: null,
  ...o,
});
const start = (o: Partial<JobStartRequest> = {}): JobStartRequest => ({ op: 'start', maxUnits: null, maxRunning: null, spiders: [], fields: {}, by: 'runner', ...o });
const check = (lostMs: number): JobsRequest => ({ op: 'check-runners', lostMs, by: 'jobrunner' });
const update = (updates: (Partial<JobUpdate> & { key: string })[], by = 'bob'): JobsRequest => ({
  op: 'update',
  updates: updates.map((u) => ({ state: null, fields: {}, ...u })),
  by,
});
const cancel = (keys: string[], by = 'carol'): JobCancelRequest => ({ op: 'cancel', keys, by });
const tags = (o: Partial<JobTagsRequest>): JobTagsRequest => ({ op: 'tags', keys: [], spider: null, add: [], remove: [], by: 'dave', ...o });

type PushOutcome = Extract<JobsOutcome, { op: 'push' }>;
type StartOutcome = Extract<JobsOutcome, { op: 'start' }>;
type UpdateOutcome = Extract<JobsOutcome, { op: 'update' }>;
type CountOutcome = Extract<JobsOutcome, { op: 'cancel' | 'tags' }>;
type CheckOutcome = Extract<JobsOutcome, { op: 'check-runners' }>;

/** The state changes JobQ allows (docs/dash-api.md, "State changes"); a job may always be set to its own state. */
const ALLOWED_CHANGES = ['pending>running', 'pending>finished', 'running>finished', 'finished>deleted'];

const keysOf = (jobs: JobDoc[]) => jobs.map((j) => j.key);
const zero = (): Record<JobState, number> => ({ pending: 0, running: 0, finished: 0, deleted: 0 });

export function jobsViewContract(name: string, harness: ViewHarness<JobsView>): void {
  describe(`JobsView contract: ${name}`, () => {
    let f: ViewFixture<JobsView>;
    let view: JobsView;
    let log: JobsLog;
    eachViewFixture(harness, (fixture) => ((f = fixture), (view = fixture.view), (log = new JobsLog(fixture))));

    const req = <O extends JobsOutcome>(project: number, request: JobsRequest, at?: number) => log.request<O>(project, request, at);
    const pushed = async (project: number, spider: string, o: Partial<JobPushRequest> = {}, at?: number) => {
      const out = await req<PushOutcome>(project, push(spider, o), at);
      expect(out.error).toBeNull();
      return out.key;
    };
    const list = (filter: JobFilter, offset = 0, limit = 1000) => view.list(filter, { offset, limit });
    const listed = async (filter: JobFilter, offset = 0, limit = 1000) => keysOf(await list(filter, offset, limit));
    const job = async (key: string) => {
      const j = await view.job(key);
      if (!j) throw new Error(`no job ${key}`);
      return j;
    };

    it('is empty at first', async () => {
      expect(await view.job('1/1/1')).toBeNull();
      expect(await view.spiderByName(1, 'books')).toBeNull();
      expect(await view.spiderById(1, 1)).toBeNull();
      expect(await view.spiders(1)).toEqual([]);
      expect(await view.maxSpiderId(1)).toBe(0);
      expect(await view.hasActiveJob(1, {})).toBe(false);
      expect(await view.nextPending(1, null, null)).toBeNull();
      expect(await view.jobsOfSpider(1, 1)).toEqual([]);
      expect(await view.outcome('nope')).toBeNull();
      expect(await list({ project: 1 })).toEqual([]);
      expect(await view.count({ project: 1 })).toBe(0);
      expect(await view.stateCounts()).toEqual([]);
      expect(await view.stateCounts(1)).toEqual([]);
    });

    it('folds a decision fact once: its documents and the partition\'s decided-through mark, a second fact of the request ignored', async () => {
      expect(await view.decidedThrough(0)).toBe(-1);
      expect(await view.builtBeforeFacts()).toBe(false);
      const activity: unknown[] = [];
      const projection = new JobsProjection(view, { record: async (at: LoggedEvent, _p: number, m: object[]) => void activity.push(...m.map((x) => ({ offset: at.offset, ...x }))) } as unknown as ActivityView);
      // The request at offset 0, its fact at 1, a second fact of the same request (another decision) at 2, a request and its fact at 3 and 4.
      const request = log.event(3, push('books'));
      const factOf = (r: LoggedEvent, decision: unknown, offset: number): LoggedEvent => {
        const d = r.event.data as JobsRequested;
        const data: JobsDecided = { requestId: d.requestId, project: 3, op: d.request.op, requestOffset: r.offset, requestedAt: r.event.occurredAt, deciderVersion: 1, decision };
        return { topic: JOBS_TOPIC, partition: 0, offset, event: createEvent({ type: JOBS_DECIDED, key: '3', data, actor: r.event.actor, causationId: r.event.id }, systemStamps) };
      };
      const decision = await decideJobs(view, { project: 3, at: request.event.occurredAt, order: request.offset }, (request.event.data as JobsRequested).request);
      const other = { ...decision, effects: { ...decision.effects, jobs: decision.effects.jobs.map((j) => ({ ...j, key: '3/1/9', number: 9 })) } };
      log.event(3, push('unused')); // offsets 1 and 2 are the facts below
      log.event(3, push('unused'));
      const later = log.event(3, push('books'));
      const first = factOf(request, decision, 1);
      const second = factOf(request, other, 2);
      await f.store.applyBatch(JOBS_TOPIC, 0, [request, first, second], (e) => projection.apply(e));
      expect(keysOf(await list({ project: 3 }))).toEqual(['3/1/1']);
      expect(await view.decidedThrough(0)).toBe(0);
      expect(await view.decidedThrough(1)).toBe(-1);
      expect((await view.outcome((request.event.data as JobsRequested).requestId))!.outcome).toEqual({ op: 'push', key: '3/1/1', error: null, state: 'pending' });
      // Under the request's id, time and place in the stream, as before decisions were facts.
      expect(activity).toEqual([{ offset: 0, id: `${request.event.id}:0`, ts: request.event.occurredAt, json: JSON.stringify({ event: 'job:scheduled', job: '3/1/1', user: 'alice' }) }]);
      const laterDecision = await decideJobs(view, { project: 3, at: later.event.occurredAt, order: later.offset }, (later.event.data as JobsRequested).request);
      await f.store.applyBatch(JOBS_TOPIC, 0, [later, factOf(later, laterDecision, 4)], (e) => projection.apply(e));
      expect(keysOf(await list({ project: 3 }))).toEqual(['3/1/2', '3/1/1']);
      expect(await view.decidedThrough(0)).toBe(3);
      // Applied again (a crash before the checkpoint): nothing changes, the mark never moves back.
      if (f.selfGuarded) for (const e of [first, second, factOf(later, laterDecision, 4)]) await projection.apply(e);
      expect(keysOf(await list({ project: 3 }))).toEqual(['3/1/2', '3/1/1']);
      expect(await view.decidedThrough(0)).toBe(3);
    });

    it('keeps a runner heard when a check requested before its heartbeat is folded after it', async () => {
      const heartbeat = log.heartbeat(4, 'r');
      const staleCheck = log.heartbeat(4, 'x'); // positions of two check facts
      const freshCheck = log.heartbeat(4, 'x');
      const silence = (runner: string, silentSince: number) => ({ put: [{ project: 4, runner, silentSince }], drop: [] });
      await f.store.applyBatch(JOBS_TOPIC, 0, [heartbeat, staleCheck], async (e) => {
        if (e === heartbeat) await view.putRunners(e, 4, { put: [{ project: 4, runner: 'r', silentSince: null }], drop: [] });
        // Requested before the heartbeat (at its offset - 1): the runner stays heard.
        else await view.putRunners(e, 4, silence('r', 1000), heartbeat.offset - 1);
      });
      expect(await view.runnersOf(4)).toEqual([{ project: 4, runner: 'r', silentSince: null }]);
      // Requested after it: the silence starts.
      await f.store.applyBatch(JOBS_TOPIC, 0, [freshCheck], (e) => view.putRunners(e, 4, silence('r', 2000), staleCheck.offset));
      expect(await view.runnersOf(4)).toEqual([{ project: 4, runner: 'r', silentSince: 2000 }]);
    });

    it('pushes a job: the whole document, metadata in the order the platform writes it', async () => {
      const e = log.event(
        1,
        push('books', {
          priority: 3, units: 2, tags: ['x', 'y'], spiderArgs: { b: '2', a: '1' }, jobSettings: { LOG_LEVEL: 'INFO' },
          meta: { custom: 1, 'a.b': { $x: [null, 'é'] } }, spiderType: 'auto',
        }),
        5000,
      );
      await log.deliver([e]);
      expect(await log.outcomeOf(e)).toEqual({ op: 'push', key: '1/1/1', error: null, state: 'pending' });
      const doc = await job('1/1/1');
      expect(doc).toEqual({
        key: '1/1/1', project: 1, spiderId: 1, number: 1, spider: 'books', state: 'pending', priority: 3, units: 2, tags: ['x', 'y'],
        order: e.offset, ts: 5000, unique: null, argsKey: argsKeyOf({ a: '1', b: '2' }), fire: null,
        meta: {
          scheduled_by: 'alice', units: 2, state: 'pending', priority: 3, tags: ['x', 'y'], pending_time: 5000, spider_type: 'auto', spider: 'books',
          project: 1, spider_args: { b: '2', a: '1' }, job_settings: { LOG_LEVEL: 'INFO' }, custom: 1, 'a.b': { $x: [null, 'é'] },
        },
        // Every field the push set, stamped with its time.
        metaTimes: Object.fromEntries(
          ['scheduled_by', 'units', 'state', 'priority', 'tags', 'pending_time', 'spider_type', 'spider', 'project', 'spider_args', 'job_settings', 'custom', 'a.b'].map((k) => [k, 5000]),
        ),
      });
      expect(Object.keys(doc)).toEqual(['key', 'project', 'spiderId', 'number', 'spider', 'state', 'priority', 'units', 'tags', 'order', 'ts', 'unique', 'argsKey', 'fire', 'meta', 'metaTimes']);
      expect(Object.keys(doc.meta)).toEqual([
        'scheduled_by', 'units', 'state', 'priority', 'tags', 'pending_time', 'spider_type', 'spider', 'project', 'spider_args', 'job_settings', 'custom', 'a.b',
      ]);
      expect(Object.keys(doc.meta.spider_args as object)).toEqual(['b', 'a']);
      expect(await view.spiders(1)).toEqual([{ project: 1, id: 1, name: 'books', seq: 1, tags: [] }]);
      expect((await view.outcome((e.event.data as JobsRequested).requestId))!.effects.jobs).toEqual([doc]);
    });

    it('numbers jobs per spider, spiders per project, and never reuses a number', async () => {
      expect(await pushed(1, 'books')).toBe('1/1/1');
      expect(await pushed(1, 'books')).toBe('1/1/2');
      expect(await pushed(1, 'quotes')).toBe('1/2/1');
      expect(await pushed(1, 'books')).toBe('1/1/3');
      expect(await pushed(2, 'quotes')).toBe('2/1/1');
      expect(await pushed(1, 'authors')).toBe('1/3/1');
      // Sorted by name.
      expect(await view.spiders(1)).toEqual([
        { project: 1, id: 3, name: 'authors', seq: 1, tags: [] },
        { project: 1, id: 1, name: 'books', seq: 3, tags: [] },
        { project: 1, id: 2, name: 'quotes', seq: 1, tags: [] },
      ]);
      expect(await view.spiders(2)).toEqual([{ project: 2, id: 1, name: 'quotes', seq: 1, tags: [] }]);
      expect(await view.spiders(3)).toEqual([]);
      expect(await view.spiderByName(1, 'quotes')).toEqual({ project: 1, id: 2, name: 'quotes', seq: 1, tags: [] });
      expect(await view.spiderByName(2, 'books')).toBeNull();
      expect(await view.spiderById(1, 1)).toEqual({ project: 1, id: 1, name: 'books', seq: 3, tags: [] });
      expect(await view.spiderById(2, 2)).toBeNull();
      expect(await view.maxSpiderId(1)).toBe(3);
      expect(await view.maxSpiderId(2)).toBe(1);
      expect(keysOf(await view.jobsOfSpider(1, 1))).toEqual(['1/1/1', '1/1/2', '1/1/3']);
      expect(keysOf(await view.jobsOfSpider(2, 1))).toEqual(['2/1/1']);
      // A deleted job keeps its number taken.
      await req(1, update([{ key: '1/1/3', state: 'finished' }]));
      await req(1, update([{ key: '1/1/3', state: 'deleted' }]));
      expect(await pushed(1, 'books')).toBe('1/1/4');
    });

    it('refuses a unique push while an active job has the value, and the refusal consumes a number', async () => {
      expect(await pushed(1, 'books', { unique: 'u1' })).toBe('1/1/1');
      expect(await req(1, push('books', { unique: 'u1' }))).toEqual({ op: 'push', key: '1/1/2', error: 'Active job exists with key u1', state: 'pending' });
      // Any spider of the project: unique is project-wide.
      expect((await req<PushOutcome>(1, push('quotes', { unique: 'u1' }))).error).toBe('Active job exists with key u1');
      expect(await view.job('1/1/2')).toBeNull();
      expect(await view.job('1/2/1')).toBeNull();
      expect(await view.spiderByName(1, 'books')).toEqual({ project: 1, id: 1, name: 'books', seq: 2, tags: [] });
      expect(await view.spiderByName(1, 'quotes')).toEqual({ project: 1, id: 2, name: 'quotes', seq: 1, tags: [] });
      // Another project, another value: accepted.
      expect(await pushed(2, 'books', { unique: 'u1' })).toBe('2/1/1');
      expect(await pushed(1, 'books', { unique: 'u2' })).toBe('1/1/3');
      expect(await view.hasActiveJob(1, { unique: 'u1' })).toBe(true);
      expect(await view.hasActiveJob(1, { unique: 'nope' })).toBe(false);
      // Running is still active; finished is not.
      await req(1, update([{ key: '1/1/1', state: 'running' }]));
      expect((await req<PushOutcome>(1, push('books', { unique: 'u1' }))).error).not.toBeNull();
      await req(1, update([{ key: '1/1/1', state: 'finished' }]));
      expect(await view.hasActiveJob(1, { unique: 'u1' })).toBe(false);
      expect(await req(1, push('books', { unique: 'u1' }))).toEqual({ op: 'push', key: '1/1/5', error: null, state: 'pending' });
      expect(await view.count({ project: 1 })).toBe(3);
    });

    it('keeps spider tags and project settings', async () => {
      await pushed(1, 'books');
      const spider = (r: Partial<SpiderRequest>): SpiderRequest => ({ op: 'spider', name: null, id: 1, create: false, add: [], remove: [], by: 'x', ...r });
      await req(1, spider({ add: ['a', 'b'] }));
      await req(1, spider({ remove: ['a'], add: ['c'] }));
      expect((await view.spiders(1)).map((s) => s.tags)).toEqual([['b', 'c']]);
      expect((await view.spiderById(1, 1))!.tags).toEqual(['b', 'c']);
      expect(await req(1, spider({ id: null, name: 'new', create: true }))).toMatchObject({ op: 'spider', spider: { id: 2, name: 'new', seq: 0, tags: [] } });
      expect(await pushed(1, 'new')).toBe('1/2/1');
      await req(1, { op: 'settings', set: { a: 1, b: [2] }, remove: null, by: 'x' });
      await req(1, { op: 'settings', set: { c: 'x' }, remove: 'a', by: 'x' });
      expect(await view.settings(1)).toEqual({ b: [2], c: 'x' });
      expect(await view.settings(2)).toEqual({});
    });

    it('layers the project\'s and the spider\'s Scrapy settings under a job\'s job_settings, the job\'s own winning', async () => {
      const scrapy = (spider: string | null, set: Record<string, unknown>): JobsRequest => ({ op: 'scrapy-settings', spider, set, by: 'x' });
      const jobSettings = async (key: string) => (await job(key)).meta.job_settings;
      // Nothing set, nothing asked: no job_settings at all (as before settings existed).
      expect(await jobSettings(await pushed(1, 'books'))).toBeUndefined();
      expect(await req(1, scrapy(null, { LOG_LEVEL: 'INFO', DOWNLOAD_DELAY: 1, FEEDS: { a: 1 } }))).toEqual({
        op: 'scrapy-settings', settings: { LOG_LEVEL: 'INFO', DOWNLOAD_DELAY: 1, FEEDS: { a: 1 } },
      });
      await req(1, scrapy('books', { DOWNLOAD_DELAY: 2, CLOSESPIDER_ITEMCOUNT: 5 }));
      // Merged key by key into what is there; null removes a key.
      expect(await req(1, scrapy('books', { CLOSESPIDER_ITEMCOUNT: null, ROBOTSTXT_OBEY: false }))).toEqual({
        op: 'scrapy-settings', settings: { DOWNLOAD_DELAY: 2, ROBOTSTXT_OBEY: false },
      });
      expect(await view.scrapySettings(1, null)).toEqual({ LOG_LEVEL: 'INFO', DOWNLOAD_DELAY: 1, FEEDS: { a: 1 } });
      expect(await view.scrapySettings(1, 'books')).toEqual({ DOWNLOAD_DELAY: 2, ROBOTSTXT_OBEY: false });
      expect(await view.scrapySettings(1, 'other')).toEqual({});
      expect(await view.scrapySettings(2, null)).toEqual({});
      // Project < spider < job, key by key; a whole value is replaced, not merged into.
      const both = await pushed(1, 'books', { jobSettings: { LOG_LEVEL: 'DEBUG', FEEDS: { b: 2 } } });
      expect(await jobSettings(both)).toEqual({ LOG_LEVEL: 'DEBUG', DOWNLOAD_DELAY: 2, FEEDS: { b: 2 }, ROBOTSTXT_OBEY: false });
      expect(await jobSettings(await pushed(1, 'other'))).toEqual({ LOG_LEVEL: 'INFO', DOWNLOAD_DELAY: 1, FEEDS: { a: 1 } });
      expect(await jobSettings(await pushed(2, 'books', { jobSettings: {} }))).toEqual({});
      // A job keeps the settings it was scheduled with; the next one gets the new ones.
      await req(1, scrapy(null, { LOG_LEVEL: null, FEEDS: null }));
      expect(await jobSettings(both)).toEqual({ LOG_LEVEL: 'DEBUG', DOWNLOAD_DELAY: 2, FEEDS: { b: 2 }, ROBOTSTXT_OBEY: false });
      expect(await jobSettings(await pushed(1, 'other'))).toEqual({ DOWNLOAD_DELAY: 1 });
      // Platform settings (projects/<p>/settings) are another thing: untouched, and never in job_settings.
      await req(1, { op: 'settings', set: { botgroups: ['g'] }, remove: null, by: 'x' });
      expect(await view.settings(1)).toEqual({ botgroups: ['g'] });
      expect(await jobSettings(await pushed(1, 'other', { spiderArgs: { n: '2' } }))).toEqual({ DOWNLOAD_DELAY: 1 });
    });

    it('takes one periodic fire (schedule and slot) once, without spending a number on the duplicate', async () => {
      const fire = { schedule: 's1', slot: 1_700_000_000_000 };
      expect(await pushed(1, 'books', { fire })).toBe('1/1/1');
      expect(await view.hasFired(1, 's1@1700000000000')).toBe(true);
      expect((await req<PushOutcome>(1, push('books', { fire }))).error).toMatch(/already fired/);
      await req(1, update([{ key: '1/1/1', state: 'finished' }]));
      expect((await req<PushOutcome>(1, push('books', { fire }))).error).toMatch(/already fired/);
      expect(await view.hasFired(2, 's1@1700000000000')).toBe(false);
      expect(await pushed(1, 'books', { fire: { ...fire, slot: fire.slot + 60_000 } })).toBe('1/1/2');
    });

    it('refuses a push with the arguments of an active job of the spider when asked (run.json)', async () => {
      const args = { x: '1', y: '2' };
      expect(await pushed(1, 'books', { spiderArgs: args })).toBe('1/1/1');
      expect(await req(1, push('books', { spiderArgs: { y: '2', x: '1' }, refuseDuplicateArgs: true }))).toEqual({
        op: 'push', key: '1/1/2', error: 'books already scheduled', state: 'pending',
      });
      expect(await view.hasActiveJob(1, { spiderId: 1, argsKey: argsKeyOf(args) })).toBe(true);
      expect(await view.hasActiveJob(1, { spiderId: 2, argsKey: argsKeyOf(args) })).toBe(false);
      expect(await view.hasActiveJob(1, { spiderId: 1, argsKey: argsKeyOf({}) })).toBe(false);
      // Other arguments, another spider, or not asked: accepted.
      expect(await pushed(1, 'books', { spiderArgs: { x: '1' }, refuseDuplicateArgs: true })).toBe('1/1/3');
      expect(await pushed(1, 'quotes', { spiderArgs: args, refuseDuplicateArgs: true })).toBe('1/2/1');
      expect(await pushed(1, 'books', { spiderArgs: args })).toBe('1/1/4');
    });

    it('pushes straight into another state, stamping both states', async () => {
      const key = await pushed(1, 'books', { state: 'running', by: 'eve' }, 7000);
      const doc = await job(key);
      expect(doc).toMatchObject({ state: 'running', ts: 7000 });
      expect(doc.meta).toMatchObject({ state: 'running', pending_time: 7000, scheduled_by: 'eve', running_time: 7000, started_by: 'eve' });
      expect(await view.nextPending(1, null, null)).toBeNull();
    });

    it('starts the pending job of highest priority, first pushed first, within the units and spiders asked', async () => {
      const a = await pushed(1, 'books', { priority: 2 });
      const b = await pushed(1, 'books', { priority: 3 });
      const c = await pushed(1, 'books', { priority: 3 });
      const d = await pushed(1, 'books', { priority: 2, units: 3 });
      const e = await pushed(1, 'quotes', { priority: 4, units: 2 });
      await pushed(2, 'books', { priority: 4 });
      expect((await view.nextPending(1, null, null))!.key).toBe(e);
      expect((await view.nextPending(1, 1, null))!.key).toBe(b);
      expect((await view.nextPending(1, 2, [1]))!.key).toBe(b);
      expect((await view.nextPending(1, null, [2, 9]))!.key).toBe(e);
      expect(await view.nextPending(1, null, [])).toBeNull();
      expect(await view.nextPending(1, 0, null)).toBeNull();

      const out = await req<StartOutcome>(1, start({ maxUnits: 1, fields: { hostname: 'h1', 'x.y': 1 } }), 9000);
      expect(out).toEqual({ op: 'start', key: b });
      const started = await job(b);
      expect(started).toMatchObject({ state: 'running', ts: 9000, priority: 3 });
      expect(started.meta).toMatchObject({ state: 'running', running_time: 9000, started_by: 'runner', hostname: 'h1', 'x.y': 1 });
      expect(Object.keys(started.meta).slice(-4)).toEqual(['running_time', 'started_by', 'hostname', 'x.y']);
      expect((await req<StartOutcome>(1, start({ maxUnits: 1 }))).key).toBe(c);
      expect((await req<StartOutcome>(1, start({ maxUnits: 1 }))).key).toBe(a);
      expect((await req<StartOutcome>(1, start({ maxUnits: 1 }))).key).toBeNull();
      expect((await req<StartOutcome>(1, start({ spiders: ['nope'] }))).key).toBeNull();
      expect((await req<StartOutcome>(1, start({ spiders: ['nope', 'quotes'] }))).key).toBe(e);
      expect((await req<StartOutcome>(1, start({ spiders: ['quotes'] }))).key).toBeNull();
      expect((await req<StartOutcome>(1, start())).key).toBe(d);
      expect((await req<StartOutcome>(1, start())).key).toBeNull();
      expect(await view.count({ project: 1, states: ['running'] })).toBe(5);
      expect(await view.count({ project: 2, states: ['pending'] })).toBe(1);
    });

    it('updates states and fields, stamping each state time and author', async () => {
      const k1 = await pushed(1, 'books', {}, 1000);
      const k2 = await pushed(1, 'books', {}, 2000);
      const k3 = await pushed(1, 'quotes', {}, 3000);
      let out = await req<UpdateOutcome>(1, update([{ key: k1, state: 'running' }, { key: k2, fields: { note: 'n' } }], 'runner'), 4000);
      expect(out).toEqual({ op: 'update', lines: [{ prevstate: 'pending', key: k1 }, { prevstate: 'pending', key: k2 }], errors: [] });
      expect(await job(k1)).toMatchObject({ state: 'running', ts: 4000, meta: { state: 'running', running_time: 4000, started_by: 'runner' } });
      // Fields only: the state and its time stay.
      expect(await job(k2)).toMatchObject({ state: 'pending', ts: 2000, meta: { state: 'pending', note: 'n' } });

      out = await req<UpdateOutcome>(1, update([{ key: k1, state: 'finished', fields: { close_reason: 'finished', items: 3 } }]), 5000);
      expect(out.lines).toEqual([{ prevstate: 'running', key: k1 }]);
      expect(await job(k1)).toMatchObject({
        state: 'finished', ts: 5000, meta: { state: 'finished', finished_time: 5000, completed_by: 'bob', close_reason: 'finished', items: 3, running_time: 4000 },
      });

      // Only finished jobs can be deleted, and a request with a refused line changes nothing.
      const k1Finished = await job(k1);
      out = await req<UpdateOutcome>(1, update([{ key: k2, state: 'deleted' }, { key: k1, state: 'deleted' }]), 6000);
      expect(out).toEqual({ op: 'update', lines: [], errors: [`job ${k2} is pending: only finished jobs can be deleted`] });
      expect(await job(k1)).toEqual(k1Finished);
      expect((await job(k2)).state).toBe('pending');
      out = await req<UpdateOutcome>(1, update([{ key: k1, state: 'deleted' }]), 6000);
      expect(out).toEqual({ op: 'update', lines: [{ prevstate: 'finished', key: k1 }], errors: [] });
      expect(await job(k1)).toMatchObject({ state: 'deleted', ts: 6000, meta: { deleted_time: 6000, deleted_by: 'bob' } });

      // Two updates of one job in one request: the second sees the first.
      out = await req<UpdateOutcome>(1, update([{ key: k3, state: 'running' }, { key: k3, state: 'finished' }]), 7000);
      expect(out.lines).toEqual([{ prevstate: 'pending', key: k3 }, { prevstate: 'running', key: k3 }]);
      expect(await job(k3)).toMatchObject({ state: 'finished', ts: 7000, meta: { running_time: 7000, finished_time: 7000 } });

      // Unknown jobs and other projects' jobs are not touched.
      await pushed(2, 'books');
      out = await req<UpdateOutcome>(1, update([{ key: '1/1/99', state: 'running' }, { key: '2/1/1', state: 'running' }, { key: 'junk' }]));
      expect(out).toEqual({ op: 'update', lines: [], errors: [] });
      expect((await job('2/1/1')).state).toBe('pending');
    });

    it('updates every job of a spider but its deleted ones', async () => {
      const [k1, k2, k3] = [await pushed(1, 'books'), await pushed(1, 'books'), await pushed(1, 'books')];
      const other = await pushed(1, 'quotes');
      await req(1, update([{ key: k1, state: 'finished' }]));
      await req(1, update([{ key: k1, state: 'deleted' }]));
      const deleted = await job(k1);
      const out = await req<UpdateOutcome>(1, update([{ key: '1/1', fields: { batch: 7 } }]));
      expect(out.lines).toEqual([{ prevstate: 'pending', key: k2 }, { prevstate: 'pending', key: k3 }]);
      expect(await job(k1)).toEqual(deleted);
      expect((await job(k2)).meta.batch).toBe(7);
      expect((await job(k3)).meta.batch).toBe(7);
      expect((await job(other)).meta).not.toHaveProperty('batch');
      // A job key addresses a deleted job too.
      expect((await req<UpdateOutcome>(1, update([{ key: k1, fields: { batch: 8 } }]))).lines).toEqual([{ prevstate: 'deleted', key: k1 }]);
      expect((await job(k1)).meta.batch).toBe(8);
    });

    it('cancels: a pending job finishes at once as cancelled, a running one gets a stop request', async () => {
      const p = await pushed(1, 'books', {}, 1000);
      const r = await pushed(1, 'books', {}, 2000);
      const done = await pushed(1, 'books', {}, 3000);
      await req(1, update([{ key: r, state: 'running' }]), 4000);
      await req(1, update([{ key: done, state: 'finished' }]), 5000);
      const doneBefore = await job(done);
      const other = await pushed(2, 'books');
      const out = await req<CountOutcome>(1, cancel([p, r, done, p, '1/1/99', other]), 6000);
      expect(out).toEqual({ op: 'cancel', count: 2 });
      expect(await job(p)).toMatchObject({
        state: 'finished', ts: 6000,
        meta: { state: 'finished', finished_time: 6000, completed_by: 'carol', close_reason: 'cancelled', cancelled_by: 'carol' },
      });
      const running = await job(r);
      expect(running).toMatchObject({ state: 'running', ts: 4000, meta: { state: 'running', stop_requested: true, cancelled_by: 'carol' } });
      expect(running.meta).not.toHaveProperty('close_reason');
      expect(await job(done)).toEqual(doneBefore);
      expect((await job(other)).state).toBe('pending');
      expect(await req(1, cancel([p]))).toEqual({ op: 'cancel', count: 0 });
    });

    it('allows only the state changes of the table: a refused one changes nothing, a job keeps its own state', async () => {
      /** A new job, moved to `state` through allowed changes. */
      const jobIn = async (state: JobState) => {
        const key = await pushed(1, 'books');
        const path: Record<JobState, JobState[]> = { pending: [], running: ['running'], finished: ['running', 'finished'], deleted: ['finished', 'deleted'] };
        for (const next of path[state]) expect((await req<UpdateOutcome>(1, update([{ key, state: next }]))).errors).toEqual([]);
        return key;
      };
      expect(Object.entries(STATE_CHANGES).flatMap(([from, tos]) => tos.map((to) => `${from}>${to}`))).toEqual(ALLOWED_CHANGES);
      for (const from of JOB_STATES) {
        for (const to of JOB_STATES) {
          const key = await jobIn(from);
          const before = await job(key);
          const other = await pushed(1, 'books');
          // With a second, valid line: a refusal refuses the whole request.
          const out = await req<UpdateOutcome>(1, update([{ key: other, fields: { note: 'x' } }, { key, state: to, fields: { note: `${from}>${to}` } }]));
          const after = await job(key);
          if (from === to) {
            // Fields only: the state's time, the run and the activity stay as they were.
            expect(out).toEqual({ op: 'update', lines: [{ prevstate: 'pending', key: other }, { prevstate: from, key }], errors: [] });
            expect(after).toEqual({ ...before, meta: { ...before.meta, note: `${from}>${to}` }, metaTimes: after.metaTimes });
          } else if (ALLOWED_CHANGES.includes(`${from}>${to}`)) {
            expect(out.errors).toEqual([]);
            expect(after).toMatchObject({ state: to, meta: { state: to, note: `${from}>${to}` } });
          } else {
            const why = to === 'deleted' ? 'only finished jobs can be deleted' : `it cannot become ${to}`;
            expect(out).toEqual({ op: 'update', lines: [], errors: [`job ${key} is ${from}: ${why}`] });
            expect(after).toEqual(before);
            expect((await job(other)).meta).not.toHaveProperty('note');
          }
        }
      }
    });

    it('gives a job one run: the place in the stream of the request that made it running, kept while it runs', async () => {
      const key = await pushed(1, 'books');
      expect((await job(key)).run).toBeUndefined();
      const claim = log.event(1, start({ fields: { _runner: 'r1' } }));
      await log.deliver([claim]);
      expect(await job(key)).toMatchObject({ state: 'running', run: claim.offset });
      await req(1, update([{ key, state: 'running', fields: { progress: 1 } }]));
      expect((await job(key)).run).toBe(claim.offset);
      // Finished, it cannot be made running again: its run is over for good.
      await req(1, update([{ key, state: 'finished' }]));
      expect((await req<UpdateOutcome>(1, update([{ key, state: 'running' }]))).errors).toEqual([`job ${key} is finished: it cannot become running`]);
      expect(await job(key)).toMatchObject({ state: 'finished', run: claim.offset });
      // Pushed straight into running: a run of its own.
      const direct = log.event(1, push('books', { state: 'running' }));
      await log.deliver([direct]);
      expect((await job('1/1/2')).run).toBe(direct.offset);
    });

    it('finishes as failed the running jobs of a runner silent for lostMs, by the checks\' times only', async () => {
      const LOST = 60_000;
      const checked = async (at: number): Promise<LostJob[]> => {
        const e = log.event(1, check(LOST), at);
        await log.deliver([e]);
        // A check that failed nothing records no outcome.
        const decision = await view.outcome((e.event.data as JobsRequested).requestId);
        return decision ? (decision.outcome as CheckOutcome).failed : [];
      };
      const [a, b, c, manual] = [await pushed(1, 'books'), await pushed(1, 'books'), await pushed(1, 'books'), await pushed(1, 'books')];
      await req(1, start({ fields: { _runner: 'r1' } }), 10_000);
      await req(1, start({ fields: { _runner: 'r2' } }), 10_000);
      await req(1, start({ fields: { _runner: 'r1' } }), 10_000);
      await req(1, update([{ key: manual, state: 'running' }]), 10_000); // no runner: not the checks' business
      expect(await view.runnersOf(1)).toEqual([{ project: 1, runner: 'r1', silentSince: null }, { project: 1, runner: 'r2', silentSince: null }]);
      expect(await view.projectsWithRunnerJobs()).toEqual([1]);

      // r2 heartbeats between the checks (its clock far behind: heartbeat times are not compared); r1 is silent from 10 s on.
      expect(await checked(20_000)).toEqual([]);
      expect(await view.runnersOf(1)).toEqual([{ project: 1, runner: 'r1', silentSince: 20_000 }, { project: 1, runner: 'r2', silentSince: 20_000 }]);
      for (let at = 30_000; at <= 70_000; at += 10_000) {
        await log.deliver([log.heartbeat(1, 'r2', 1)]);
        expect(await checked(at)).toEqual([]);
      }
      await log.deliver([log.heartbeat(1, 'r2', 1)]);
      expect(await checked(79_999)).toEqual([]);
      expect(await checked(80_000)).toEqual([
        { key: a, runner: 'r1', silentMs: 60_000, lostMs: LOST },
        { key: c, runner: 'r1', silentMs: 60_000, lostMs: LOST },
      ]);
      for (const key of [a, c]) {
        expect(await job(key)).toMatchObject({ state: 'finished', ts: 80_000, meta: { close_reason: 'failed', completed_by: 'jobrunner', finished_time: 80_000, _runner: 'r1' } });
      }
      expect((await job(b)).state).toBe('running');
      expect((await job(manual)).state).toBe('running');
      expect(await view.runnersOf(1)).toEqual([{ project: 1, runner: 'r2', silentSince: 79_999 }]);

      // r1 comes back: its jobs stay finished, and the next check forgets it (nothing of it runs here).
      await log.deliver([log.heartbeat(1, 'r1', 81_000)]);
      expect(await checked(90_000)).toEqual([]);
      expect((await job(a)).state).toBe('finished');
      expect(await view.runnersOf(1)).toEqual([{ project: 1, runner: 'r2', silentSince: 79_999 }]);
      // Once no runner's job runs, the project needs no checks.
      await req(1, update([{ key: b, state: 'finished' }]));
      expect(await view.projectsWithRunnerJobs()).toEqual([]);
    });

    it('claims nothing while the project runs max_running jobs', async () => {
      const [a, b, c] = [await pushed(1, 'books'), await pushed(1, 'books'), await pushed(1, 'books')];
      expect((await req<StartOutcome>(1, start({ maxRunning: 1 }))).key).toBe(a);
      expect((await req<StartOutcome>(1, start({ maxRunning: 1 }))).key).toBeNull();
      expect((await req<StartOutcome>(1, start({ maxRunning: 2 }))).key).toBe(b);
      expect((await req<StartOutcome>(1, start({ maxRunning: 2 }))).key).toBeNull();
      await req(1, update([{ key: a, state: 'finished' }]));
      expect((await req<StartOutcome>(1, start({ maxRunning: 2 }))).key).toBe(c);
      expect(await view.count({ project: 1, states: ['running'] })).toBe(2);
    });

    it('keeps botgroups and their max_running', async () => {
      const [w1, w2, w3] = [log.event(9, check(1)), log.event(9, check(1)), log.event(9, check(1))];
      await f.store.applyBatch(JOBS_TOPIC, 0, [w1, w2, w3], async (e) => {
        if (e.offset === w1.offset) await view.putBotgroup(e, 'fast', 3);
        if (e.offset === w2.offset) await view.putBotgroup(e, 'slow', null);
        if (e.offset === w3.offset) await view.putBotgroup(e, 'gone', 1);
      });
      expect(await view.botgroups(['slow', 'fast', 'gone', 'none'])).toEqual([
        { name: 'fast', maxRunning: 3 }, { name: 'gone', maxRunning: 1 }, { name: 'slow', maxRunning: null },
      ]);
      const w4 = log.event(9, check(1));
      await f.store.applyBatch(JOBS_TOPIC, 0, [w4], (e) => view.putBotgroup(e, 'gone', undefined));
      expect(await view.botgroups(['gone', 'fast'])).toEqual([{ name: 'fast', maxRunning: 3 }]);
      expect(await view.botgroups([])).toEqual([]);
    });

    it('adds and removes tags by job or for every job of a spider, and the tag filters follow', async () => {
      const k1 = await pushed(1, 'books', { tags: ['a'] });
      const k2 = await pushed(1, 'books', { tags: ['a', 'b'] });
      const k3 = await pushed(1, 'quotes');
      const k4 = await pushed(1, 'books');
      await req(1, update([{ key: k4, state: 'finished' }]));
      await req(1, update([{ key: k4, state: 'deleted' }]));

      expect(await req(1, tags({ keys: [k1, k3, k1, '2/1/1'], add: ['c', 'a'], remove: ['zz'] }))).toEqual({ op: 'tags', count: 2 });
      expect((await job(k1)).tags).toEqual(['a', 'c']);
      expect((await job(k1)).meta.tags).toEqual(['a', 'c']);
      expect((await job(k3)).tags).toEqual(['c', 'a']);
      expect(await listed({ project: 1, hasTags: ['c'] })).toEqual([k3, k1]);

      // Every non-deleted job of the spider.
      expect(await req(1, tags({ spider: 'books', add: ['d'], remove: ['a'] }))).toEqual({ op: 'tags', count: 2 });
      expect((await job(k1)).tags).toEqual(['c', 'd']);
      expect((await job(k2)).tags).toEqual(['b', 'd']);
      expect((await job(k4)).tags).toEqual([]);
      expect(await req(1, tags({ spider: 'nope', add: ['x'] }))).toEqual({ op: 'tags', count: 0 });

      expect(await listed({ project: 1, hasTags: ['a'] })).toEqual([k3]);
      expect(await listed({ project: 1, hasTags: ['d'] })).toEqual([k2, k1]);
      expect(await listed({ project: 1, hasTags: ['b', 'c'] })).toEqual([k3, k2, k1]);
      // Counted once per job however many of the tags it has, with and without other conditions.
      expect(await listed({ project: 1, hasTags: ['c', 'd'] })).toEqual([k3, k2, k1]);
      expect(await view.count({ project: 1, hasTags: ['c', 'd'] })).toBe(3);
      expect(await view.count({ project: 1, hasTags: ['c', 'd'], states: [] })).toBe(3);
      expect(await view.count({ project: 1, hasTags: ['c', 'd'], spiderIds: [] })).toBe(0);
      expect(await view.count({ project: 1, hasTags: ['c', 'd'], keys: [k1, k3] })).toBe(2);
      expect(await view.count({ project: 2, hasTags: ['c', 'd'] })).toBe(0);
      expect(await listed({ project: 1, lacksTags: ['d'] })).toEqual([k4, k3]);
      expect(await listed({ project: 1, lacksTags: ['b', 'c'] })).toEqual([k4]);
      expect(await listed({ project: 1, hasTags: ['d'], lacksTags: ['b'] })).toEqual([k1]);

      // Removing every tag.
      await req(1, tags({ keys: [k1, k2, k3], remove: ['a', 'b', 'c', 'd'] }));
      expect(await listed({ project: 1, hasTags: ['a', 'b', 'c', 'd'] })).toEqual([]);
      expect(await view.count({ project: 1, lacksTags: ['a', 'b', 'c', 'd'] })).toBe(4);
    });

    it('lists newest first (by the time of the current state, then push order) with every filter, and counts alike', async () => {
      const a = await pushed(1, 'books', { tags: ['t1'] }, 1000);
      const b = await pushed(1, 'quotes', { tags: ['t2'] }, 2000);
      const c = await pushed(1, 'books', { tags: ['t1', 't2'] }, 2000);
      const d = await pushed(1, 'books', {}, 3000);
      const e = await pushed(1, 'authors', {}, 3000);
      await pushed(2, 'books', {}, 9000);
      // a runs at 2000: same time as b and c, pushed before them.
      await req(1, update([{ key: a, state: 'running' }]), 2000);
      await req(1, update([{ key: d, state: 'running' }]), 5000);
      await req(1, update([{ key: d, state: 'finished' }]), 6000);
      await req(1, update([{ key: e, state: 'running' }]), 6000);

      const all = [e, d, c, b, a];
      expect(await listed({ project: 1 })).toEqual(all);
      expect(await view.count({ project: 1 })).toBe(5);
      expect((await list({ project: 1 })).map((j) => j.ts)).toEqual([6000, 6000, 2000, 2000, 2000]);
      expect(await listed({ project: 2 })).toEqual(['2/1/1']);
      expect(await listed({ project: 3 })).toEqual([]);

      // Pages.
      expect(await listed({ project: 1 }, 0, 2)).toEqual([e, d]);
      expect(await listed({ project: 1 }, 2, 2)).toEqual([c, b]);
      expect(await listed({ project: 1 }, 4, 2)).toEqual([a]);
      expect(await listed({ project: 1 }, 5, 2)).toEqual([]);
      expect(await listed({ project: 1 }, 1, 0)).toEqual([]);

      const check = async (filter: Omit<JobFilter, 'project'>, expected: string[]) => {
        expect(await listed({ project: 1, ...filter })).toEqual(expected);
        expect(await view.count({ project: 1, ...filter })).toBe(expected.length);
      };
      await check({ states: ['running'] }, [e, a]);
      await check({ states: ['pending', 'finished'] }, [d, c, b]);
      await check({ states: ['deleted'] }, []);
      await check({ states: [] }, all);
      await check({ spiderIds: [1] }, [d, c, a]);
      await check({ spiderIds: [2, 3] }, [e, b]);
      await check({ spiderIds: [] }, []);
      await check({ keys: [a, e, '2/1/1', 'nope'] }, [e, a]);
      await check({ keys: [] }, []);
      await check({ startts: 2000 }, all);
      await check({ startts: 2001 }, [e, d]);
      await check({ endts: 2000 }, [c, b, a]);
      await check({ endts: 1999 }, []);
      await check({ startts: 2000, endts: 2000 }, [c, b, a]);
      await check({ startts: 6000, endts: 2000 }, []);
      await check({ hasTags: ['t2'] }, [c, b]);
      await check({ hasTags: [] }, all);
      await check({ lacksTags: ['t1'] }, [e, d, b]);
      await check({ lacksTags: [] }, all);
      await check({ states: ['running', 'pending'], spiderIds: [1], hasTags: ['t1'], lacksTags: ['t2'], endts: 2000 }, [a]);

      // newerThan: after a job in list order, i.e. a later time, or the same time and a later push.
      const at = async (key: string) => {
        const j = await job(key);
        return { ts: j.ts, order: j.order };
      };
      await check({ newerThan: await at(a) }, [e, d, c, b]);
      await check({ newerThan: await at(b) }, [e, d, c]);
      await check({ newerThan: await at(c) }, [e, d]);
      await check({ newerThan: await at(d) }, [e]);
      await check({ newerThan: await at(e) }, []);
      await check({ newerThan: { ts: 0, order: 0 } }, all);
      await check({ newerThan: await at(a), spiderIds: [1] }, [d, c]);
    });

    it('counts jobs per state and project', async () => {
      await pushed(3, 'books');
      const k = await pushed(3, 'books');
      await pushed(3, 'quotes');
      await req(3, update([{ key: k, state: 'running' }]));
      await pushed(1, 'books');
      const f1 = await pushed(1, 'books');
      await req(1, update([{ key: f1, state: 'finished' }]));
      await req(1, update([{ key: f1, state: 'deleted' }]));
      const counts = await view.stateCounts();
      expect(counts).toEqual([
        { project: 1, counts: { ...zero(), pending: 1, deleted: 1 } },
        { project: 3, counts: { ...zero(), pending: 2, running: 1 } },
      ]);
      expect(Object.keys(counts[0].counts)).toEqual(['pending', 'running', 'finished', 'deleted']);
      expect(await view.stateCounts(3)).toEqual([{ project: 3, counts: { ...zero(), pending: 2, running: 1 } }]);
      expect(await view.stateCounts(2)).toEqual([]);
      // A refused push counts nothing.
      await req(2, push('books', { unique: 'u' }));
      await req(2, push('books', { unique: 'u' }));
      expect(await view.stateCounts(2)).toEqual([{ project: 2, counts: { ...zero(), pending: 1 } }]);
    });

    /** Everything the view holds for the projects of these tests. */
    const snapshot = async (events: LoggedEvent[]) => ({
      jobs: await Promise.all([1, 2].map((p) => list({ project: p }))),
      spiders: await Promise.all([1, 2].map((p) => view.spiders(p))),
      counts: await view.stateCounts(),
      runners: await Promise.all([1, 2].map((p) => view.runnersOf(p))),
      outcomes: await Promise.all(events.filter((e) => e.event.type !== RUNNER_HEARTBEAT).map((e) => view.outcome((e.event.data as JobsRequested).requestId))),
    });

    const history = () => [
      log.event(1, push('books', { unique: 'u', tags: ['a'] })),
      log.event(1, push('books', { unique: 'u' })),
      log.event(1, push('quotes', { priority: 4 })),
      log.event(2, push('books')),
      log.event(1, start()),
      log.event(1, start({ maxUnits: 1 })),
      log.event(1, tags({ spider: 'books', add: ['b'], remove: ['a'] })),
      log.event(1, update([{ key: '1/2/1', state: 'finished', fields: { close_reason: 'finished' } }])),
      log.event(1, push('books')),
      log.event(1, cancel(['1/1/1', '1/1/3'])),
      log.event(1, update([{ key: '1/2/1', state: 'deleted' }])),
      log.event(1, update([{ key: '1/1', fields: { x: 1 } }])),
      log.event(2, start()),
      log.event(1, push('quotes')),
      // A runner claims 1/2/2, heartbeats once, then falls silent: the third check finds it lost.
      log.event(1, start({ fields: { _runner: 'r9' } })),
      log.heartbeat(1, 'r9'),
      log.event(1, check(1500)),
      log.event(1, check(1500)),
      log.event(1, check(1500)),
    ];

    it('applying events again changes nothing', async () => {
      const events = history();
      await log.deliver(events);
      const before = await snapshot(events);
      expect(before.jobs[0].map((j) => [j.key, j.state])).toEqual([
        ['1/2/2', 'finished'], ['1/2/1', 'deleted'], ['1/1/3', 'finished'], ['1/1/1', 'running'],
      ]);
      expect(before.jobs[0][0].meta).toMatchObject({ close_reason: 'failed', _runner: 'r9' });
      expect(before.runners).toEqual([[], []]);
      expect(before.jobs[0].find((j) => j.key === '1/1/1')!.meta).toMatchObject({ stop_requested: true, x: 1 });
      expect(before.jobs[0].find((j) => j.key === '1/1/1')!.tags).toEqual(['b']);
      for (let i = 0; i < events.length; i++) {
        await log.replay(events.slice(i));
        expect(await snapshot(events)).toEqual(before);
      }
      await log.replay([events[4]]);
      expect(await snapshot(events)).toEqual(before);
    });

    it('a crash part way through an event, then the batch again: the recorded decision is reused, the result is the same', async () => {
      // The same history without a crash, on a fixture of its own (same offsets, same clock).
      const reference = history();
      await log.deliver(reference);
      const expected = await snapshot(reference);
      for (const after of ['saveOutcome', 'putSpiders', 'putJobs'] as Step[]) {
        for (const crashAt of [0, 4, 9, 13, 16, 18]) {
          await f.close();
          f = await harness();
          view = f.view;
          log = new JobsLog(f);
          const events = history();
          await expect(log.deliver(events, { offset: events[crashAt].offset, after })).rejects.toThrow('simulated crash');
          await log.deliver(events);
          expect(await snapshot(events)).toEqual(expected);
        }
      }
    });
  });
}
