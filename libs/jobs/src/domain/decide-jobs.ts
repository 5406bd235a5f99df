import {
  Actor, JobCancelRequest, JobPurgeRequest, JobPushRequest, JobsRequest, JobStartRequest, JobState, JobTagsRequest, JobUpdateRequest, RunnersCheckRequest, ScrapySettingsRequest,
  SettingsRequest, SpiderRequest,
} from '@crawlhub/contracts';
import {
  activityOfState, ACTIVE_STATES, argsKeyOf, fireKeyOf, JobActivity, JobDoc, jobKeyOf, refusedStateChange, runnerOf, SpiderDoc, withMeta, withState,
} from './job';

/**
 * What the project's stream says of a runner that runs its jobs: `silentSince` is the time
 * of the first runner check after the runner's last heartbeat (or claim), null when it
 * has been heard since the last check. Only checks' times are compared with each other,
 * so clocks of runners and checker need not agree.
 */
export interface RunnerLiveness {
  project: number;
  runner: string;
  silentSince: number | null;
}

/** What the decider may read: the jobs view as it is before the request. */
export interface JobsState {
  spiderByName(project: number, name: string): Promise<SpiderDoc | null>;
  maxSpiderId(project: number): Promise<number>;
  job(key: string): Promise<JobDoc | null>;
  hasActiveJob(project: number, match: { unique?: string; spiderId?: number; argsKey?: string }): Promise<boolean>;
  /** The pending job a runner gets next: highest priority, then first pushed. */
  nextPending(project: number, maxUnits: number | null, spiderIds: number[] | null): Promise<JobDoc | null>;
  jobsOfSpider(project: number, spiderId: number): Promise<JobDoc[]>;
  /** Whether a job exists for this periodic fire (`<schedule>@<slot>`), in any state. */
  hasFired(project: number, fire: string): Promise<boolean>;
  spiderById(project: number, id: number): Promise<SpiderDoc | null>;
  settings(project: number): Promise<Record<string, unknown>>;
  /** Scrapy settings of the project (`spider` null) or of one of its spiders, by name (`{}` when none). */
  scrapySettings(project: number, spider: string | null): Promise<Record<string, unknown>>;
  /** The project's running jobs. */
  runningJobs(project: number): Promise<JobDoc[]>;
  runnersOf(project: number): Promise<RunnerLiveness[]>;
  /**
   * The decision folded for a request id, if any (none for a runner check that failed
   * nothing, see recordsOutcome): read by its caller, and by the decider for a request id
   * sent again (a client's Idempotency-Key).
   */
  outcome(requestId: string): Promise<JobsDecision | null>;
}

export type JobsOutcome =
  | { op: 'push'; key: string; error: string | null; state: JobState }
  | { op: 'start'; key: string | null }
  | { op: 'update'; lines: { prevstate: JobState; key: string }[]; errors: string[] }
  | { op: 'cancel'; count: number }
  | { op: 'tags'; count: number }
  | { op: 'purge'; error: string | null }
  | { op: 'spider'; spider: SpiderDoc | null }
  | { op: 'settings'; settings: Record<string, unknown> }
  | { op: 'scrapy-settings'; settings: Record<string, unknown> }
  | { op: 'check-runners'; failed: LostJob[] };

/** A running job whose runner fell silent: finished as failed by a runner check. */
export interface LostJob {
  key: string;
  runner: string;
  /** How long the runner had been silent at the check, at least (checker's clock). */
  silentMs: number;
  lostMs: number;
}

/** Why a lost job failed: in its activity entry, and the last line of its log. */
export function lostJobMessage(lost: LostJob): string {
  return `runner ${lost.runner} sent no heartbeat for ${lost.silentMs} ms (RUNNER_LOST_MS is ${lost.lostMs}): the job's process is presumed lost, the job finishes as failed`;
}

/** Whole documents to write: applying them again changes nothing. */
export interface JobsEffects {
  spiders: SpiderDoc[];
  jobs: JobDoc[];
  activity: JobActivity[];
  /** A project's settings, whole, when they changed. */
  settings?: Record<string, unknown>;
  /** The Scrapy settings of the project (`spider` null) or of a spider, whole, when they changed. */
  scrapySettings?: { spider: string | null; settings: Record<string, unknown> };
  /** Runners of the project whose liveness changed (whole rows), and runners to forget. */
  runners?: { put: RunnerLiveness[]; drop: string[] };
  /** Keys of jobs to remove from the view (purged). */
  purge?: string[];
}

const nothing = (): JobsEffects => ({ spiders: [], jobs: [], activity: [] });

export interface JobsDecision {
  outcome: JobsOutcome;
  effects: JobsEffects;
}

/** Where and when the request was applied: the event's time and its place in the project's stream. */
export interface RequestContext {
  project: number;
  at: number;
  order: number;
}

/**
 * The version of these rules, carried by every fact the decider appends (`jobs.decided`).
 * Bump it with any change to what a request decides: the log then says which rules took
 * each decision, and replay (which only folds facts) never applies new rules to old requests.
 */
export const JOBS_DECIDER_VERSION = 2;

/**
 * The id of a request a client named with an Idempotency-Key (run.json, jobq push): unique
 * per project and actor (an API key, a job), so one client's key never answers another's request.
 */
export function clientRequestId(project: number, actor: Actor, idempotencyKey: string): string {
  return `${CLIENT_REQUEST_ID}${project}/${actor.kind}:${actor.id}/${idempotencyKey}`;
}

const CLIENT_REQUEST_ID = 'idempotency-key:';

/** Whether a request id is a client's (clientRequestId): only those can come twice. */
export function isClientRequestId(requestId: string): boolean {
  return requestId.startsWith(CLIENT_REQUEST_ID);
}

/**
 * A request whose id was decided before (a client sending its Idempotency-Key again, e.g.
 * after a 503 that came once its first request was stored): the earlier outcome again, and
 * nothing applied twice. Version 2: before it, request ids were never chosen by clients.
 */
export function repeatedDecision(earlier: JobsDecision): JobsDecision {
  return { outcome: earlier.outcome, effects: nothing() };
}

export async function decideJobs(state: JobsState, ctx: RequestContext, request: JobsRequest): Promise<JobsDecision> {
  switch (request.op) {
    case 'push':
      return decidePush(state, ctx, request);
    case 'start':
      return decideStart(state, ctx, request);
    case 'update':
      return decideUpdate(state, ctx, request);
    case 'cancel':
      return decideCancel(state, ctx, request);
    case 'tags':
      return decideTags(state, ctx, request);
    case 'purge':
      return decidePurge(state, ctx, request);
    case 'spider':
      return decideSpider(state, ctx, request);
    case 'settings':
      return decideSettings(state, ctx, request);
    case 'scrapy-settings':
      return decideScrapySettings(state, ctx, request);
    case 'check-runners':
      return decideRunnersCheck(state, ctx, request);
  }
}

async function decidePush(state: JobsState, ctx: RequestContext, r: JobPushRequest): Promise<JobsDecision> {
  const fire = r.fire ? fireKeyOf(r.fire) : null;
  // A fire already taken (another scheduler, or one restarted) is dropped before it costs a number.
  if (fire !== null && (await state.hasFired(ctx.project, fire))) {
    return { outcome: { op: 'push', key: '', error: `schedule ${r.fire!.schedule} already fired at ${new Date(r.fire!.slot).toISOString()}`, state: r.state }, effects: { spiders: [], jobs: [], activity: [] } };
  }
  const known = (await state.spiderByName(ctx.project, r.spider)) ?? (await newSpider(state, ctx.project, r.spider));
  const spider = { ...known, seq: known.seq + 1 };
  const key = jobKeyOf(ctx.project, spider.id, spider.seq);
  const argsKey = argsKeyOf(r.spiderArgs);
  const effects: JobsEffects = { spiders: [spider], jobs: [], activity: [] };
  // The number is consumed even when the push is refused, as the original does.
  if (r.unique !== null && (await state.hasActiveJob(ctx.project, { unique: r.unique }))) {
    return { outcome: { op: 'push', key, error: `Active job exists with key ${r.unique}`, state: r.state }, effects };
  }
  if (r.refuseDuplicateArgs && (await state.hasActiveJob(ctx.project, { spiderId: spider.id, argsKey }))) {
    return { outcome: { op: 'push', key, error: `${r.spider} already scheduled`, state: r.state }, effects };
  }
  const jobSettings = await jobSettingsOf(state, ctx.project, r);
  const meta: Record<string, unknown> = {
    scheduled_by: r.by,
    units: r.units,
    state: 'pending',
    priority: r.priority,
    tags: r.tags,
    pending_time: ctx.at,
    spider_type: r.spiderType,
    spider: r.spider,
    project: ctx.project,
    ...(Object.keys(r.spiderArgs).length ? { spider_args: r.spiderArgs } : {}),
    ...(jobSettings ? { job_settings: jobSettings } : {}),
    ...r.meta,
  };
  let job: JobDoc = {
    key, project: ctx.project, spiderId: spider.id, number: spider.seq, spider: r.spider, state: 'pending', priority: r.priority, units: r.units,
    tags: r.tags, order: ctx.order, ts: ctx.at, unique: r.unique, argsKey, fire, meta, metaTimes: Object.fromEntries(Object.keys(meta).map((k) => [k, ctx.at])),
  };
  effects.activity.push(activityOfState('pending', key, r.by)!);
  if (r.state !== 'pending') {
    job = withState(job, r.state, ctx, r.by);
    effects.activity.push(activityOfState(r.state, key, r.by)!);
  }
  effects.jobs.push(job);
  return { outcome: { op: 'push', key, error: null, state: r.state }, effects };
}

/**
 * The job's settings as the original layers them (sh_scrapy: project settings at priority
 * 10, spider settings 30, job settings 40): the project's Scrapy settings, then its
 * spider's, then the job's own, a later layer winning key by key. Taken when the job is
 * scheduled, so a job keeps the settings it was scheduled with, as it keeps its version.
 * Null when no layer has any (and the job asked for none).
 */
async function jobSettingsOf(state: JobsState, project: number, r: JobPushRequest): Promise<Record<string, unknown> | null> {
  const merged = { ...(await state.scrapySettings(project, null)), ...(await state.scrapySettings(project, r.spider)), ...(r.jobSettings ?? {}) };
  return r.jobSettings !== null || Object.keys(merged).length > 0 ? merged : null;
}

async function decideStart(state: JobsState, ctx: RequestContext, r: JobStartRequest): Promise<JobsDecision> {
  let spiderIds: number[] | null = null;
  if (r.spiders.length) {
    spiderIds = [];
    for (const name of r.spiders) {
      const s = await state.spiderByName(ctx.project, name);
      if (s) spiderIds.push(s.id);
    }
  }
  const none: JobsDecision = { outcome: { op: 'start', key: null }, effects: nothing() };
  // Requests logged before max_running existed carry no limit.
  if (r.maxRunning != null && (await state.runningJobs(ctx.project)).length >= r.maxRunning) return none;
  const next = await state.nextPending(ctx.project, r.maxUnits, spiderIds);
  if (!next) return none;
  const started = withMeta(withState(next, 'running', ctx, r.by), r.fields, ctx.at);
  const effects: JobsEffects = { spiders: [], jobs: [started], activity: [activityOfState('running', next.key, r.by)!] };
  // A claim is a sign of life of its runner, as a heartbeat is.
  const runner = runnerOf(started);
  if (runner !== null) effects.runners = { put: [{ project: ctx.project, runner, silentSince: null }], drop: [] };
  return { outcome: { op: 'start', key: next.key }, effects };
}

/**
 * JobQ update: every line applies, or none does. A state change the table in job.ts
 * refuses (finished → running, running → pending, deleting an active job) refuses the
 * whole request, naming each job it could not change.
 */
async function decideUpdate(state: JobsState, ctx: RequestContext, r: JobUpdateRequest): Promise<JobsDecision> {
  const effects: JobsEffects = { spiders: [], jobs: [], activity: [] };
  const lines: { prevstate: JobState; key: string }[] = [];
  const errors: string[] = [];
  const changed = new Map<string, JobDoc>();
  for (const u of r.updates) {
    const targets = await targetsOf(state, ctx.project, u.key, changed);
    for (const job of targets) {
      if (u.key.split('/').length === 2 && job.state === 'deleted') continue;
      const refused = u.state ? refusedStateChange(job.key, job.state, u.state) : null;
      if (refused !== null) {
        errors.push(refused);
        continue;
      }
      const moves = u.state !== null && u.state !== job.state;
      let next = moves ? withState(job, u.state!, ctx, r.by) : { ...job };
      next = withMeta(next, u.fields, ctx.at);
      if (moves && u.state) {
        // A cancellation is recorded once: when it was asked (cancel/stop), else when a job finishes as cancelled.
        const cancelled = u.state === 'finished' && u.fields.close_reason === 'cancelled' && job.meta.cancelled_by === undefined;
        const a = activityOfState(u.state, job.key, r.by, cancelled);
        if (a) effects.activity.push(a);
      }
      changed.set(job.key, next);
      lines.push({ prevstate: job.state, key: job.key });
    }
  }
  if (errors.length) return { outcome: { op: 'update', lines: [], errors }, effects: nothing() };
  effects.jobs = [...changed.values()];
  return { outcome: { op: 'update', lines, errors }, effects };
}

async function decideCancel(state: JobsState, ctx: RequestContext, r: JobCancelRequest): Promise<JobsDecision> {
  const effects: JobsEffects = { spiders: [], jobs: [], activity: [] };
  for (const key of new Set(r.keys)) {
    const job = await state.job(key);
    if (!job || job.project !== ctx.project || !ACTIVE_STATES.includes(job.state)) continue;
    if (job.state === 'pending') {
      // A pending job finishes at once.
      const done = withState(job, 'finished', ctx, r.by);
      effects.jobs.push(withMeta(done, { close_reason: 'cancelled', cancelled_by: r.by }, ctx.at));
    } else {
      // A running job gets a stop request; its runner finishes it as cancelled.
      effects.jobs.push(withMeta(job, { stop_requested: true, cancelled_by: r.by }, ctx.at));
    }
    effects.activity.push({ event: 'job:cancelled', job: key, user: r.by });
  }
  return { outcome: { op: 'cancel', count: effects.jobs.length }, effects };
}

/**
 * Only a deleted job is purged (a job is deleted once finished, so a running job's data
 * never vanishes under it); a job that does not exist (or was purged already) is nothing
 * to do, as the original's deletes never answer 404.
 */
async function decidePurge(state: JobsState, ctx: RequestContext, r: JobPurgeRequest): Promise<JobsDecision> {
  const job = await state.job(r.key);
  if (!job || job.project !== ctx.project) return { outcome: { op: 'purge', error: null }, effects: nothing() };
  if (job.state !== 'deleted') return { outcome: { op: 'purge', error: `Job ${r.key} is ${job.state}: only a deleted job can be purged` }, effects: nothing() };
  return { outcome: { op: 'purge', error: null }, effects: { ...nothing(), purge: [r.key] } };
}

async function decideTags(state: JobsState, ctx: RequestContext, r: JobTagsRequest): Promise<JobsDecision> {
  let targets: JobDoc[] = [];
  if (r.spider !== null) {
    const spider = await state.spiderByName(ctx.project, r.spider);
    targets = spider ? (await state.jobsOfSpider(ctx.project, spider.id)).filter((j) => j.state !== 'deleted') : [];
  } else {
    for (const key of new Set(r.keys)) {
      const job = await state.job(key);
      if (job && job.project === ctx.project) targets.push(job);
    }
  }
  const jobs = targets.map((job) => {
    const tags = [...job.tags.filter((t) => !r.remove.includes(t))];
    for (const t of r.add) if (!tags.includes(t)) tags.push(t);
    return { ...withMeta(job, { tags }, ctx.at), tags };
  });
  return { outcome: { op: 'tags', count: jobs.length }, effects: { spiders: [], jobs, activity: [] } };
}

async function newSpider(state: JobsState, project: number, name: string): Promise<SpiderDoc> {
  return { project, id: (await state.maxSpiderId(project)) + 1, name, seq: 0, tags: [] };
}

async function decideSpider(state: JobsState, ctx: RequestContext, r: SpiderRequest): Promise<JobsDecision> {
  let spider = r.id !== null ? await state.spiderById(ctx.project, r.id) : await state.spiderByName(ctx.project, r.name ?? '');
  if (!spider && r.create && r.name) spider = await newSpider(state, ctx.project, r.name);
  if (!spider) return { outcome: { op: 'spider', spider: null }, effects: nothing() };
  const tags = spider.tags.filter((t) => !r.remove.includes(t));
  for (const t of r.add) if (!tags.includes(t)) tags.push(t);
  const next = { ...spider, tags };
  return { outcome: { op: 'spider', spider: next }, effects: { ...nothing(), spiders: [next] } };
}

async function decideSettings(state: JobsState, ctx: RequestContext, r: SettingsRequest): Promise<JobsDecision> {
  const settings = { ...(await state.settings(ctx.project)), ...r.set };
  if (r.remove !== null) delete settings[r.remove];
  return { outcome: { op: 'settings', settings }, effects: { ...nothing(), settings } };
}

async function decideScrapySettings(state: JobsState, ctx: RequestContext, r: ScrapySettingsRequest): Promise<JobsDecision> {
  const settings = { ...(await state.scrapySettings(ctx.project, r.spider)) };
  for (const [name, value] of Object.entries(r.set)) {
    if (value === null) delete settings[name];
    else settings[name] = value;
  }
  return { outcome: { op: 'scrapy-settings', settings }, effects: { ...nothing(), scrapySettings: { spider: r.spider, settings } } };
}

/**
 * A runner check: each runner of the project's running jobs that was heard since the last
 * check starts a silence at this check's time; one silent for `lostMs` or more has its
 * jobs finished as failed (activity `job:completed` with the reason); runners without
 * running jobs here are forgotten.
 */
async function decideRunnersCheck(state: JobsState, ctx: RequestContext, r: RunnersCheckRequest): Promise<JobsDecision> {
  const jobsByRunner = new Map<string, JobDoc[]>();
  for (const job of await state.runningJobs(ctx.project)) {
    const runner = runnerOf(job);
    if (runner !== null) jobsByRunner.set(runner, [...(jobsByRunner.get(runner) ?? []), job]);
  }
  const known = new Map((await state.runnersOf(ctx.project)).map((l) => [l.runner, l]));
  const runners = { put: [] as RunnerLiveness[], drop: [...known.keys()].filter((runner) => !jobsByRunner.has(runner)) };
  const effects: JobsEffects = { ...nothing(), runners };
  const failed: LostJob[] = [];
  for (const [runner, jobs] of jobsByRunner) {
    const silentSince = known.get(runner)?.silentSince ?? null;
    if (silentSince === null) {
      runners.put.push({ project: ctx.project, runner, silentSince: ctx.at });
      continue;
    }
    const silentMs = ctx.at - silentSince;
    if (silentMs < r.lostMs) continue;
    for (const job of jobs) {
      const lost: LostJob = { key: job.key, runner, silentMs, lostMs: r.lostMs };
      effects.jobs.push(withMeta(withState(job, 'finished', ctx, r.by), { close_reason: 'failed' }, ctx.at));
      effects.activity.push({ event: 'job:completed', job: job.key, user: r.by, close_reason: 'failed', message: lostJobMessage(lost) });
      failed.push(lost);
    }
    runners.drop.push(runner);
  }
  return { outcome: { op: 'check-runners', failed }, effects };
}

async function targetsOf(state: JobsState, project: number, key: string, changed: Map<string, JobDoc>): Promise<JobDoc[]> {
  const parts = key.split('/');
  if (Number(parts[0]) !== project) return [];
  if (parts.length === 3) {
    const job = changed.get(key) ?? (await state.job(key));
    return job ? [job] : [];
  }
  if (parts.length === 2) {
    return (await state.jobsOfSpider(project, Number(parts[1]))).map((j) => changed.get(j.key) ?? j);
  }
  return [];
}
