import {
  JobCancelRequest, JobPushRequest, JobsRequest, JobStartRequest, JobState, JobTagsRequest, JobUpdateRequest, SettingsRequest, SpiderRequest,
} from '@crawlhub/contracts';
import { activityOfState, ACTIVE_STATES, argsKeyOf, fireKeyOf, JobActivity, JobDoc, jobKeyOf, SpiderDoc, withMeta, withState } from './job';

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
}

export type JobsOutcome =
  | { op: 'push'; key: string; error: string | null; state: JobState }
  | { op: 'start'; key: string | null }
  | { op: 'update'; lines: { prevstate: JobState; key: string }[]; errors: string[] }
  | { op: 'cancel'; count: number }
  | { op: 'tags'; count: number }
  | { op: 'spider'; spider: SpiderDoc | null }
  | { op: 'settings'; settings: Record<string, unknown> };

/** Whole documents to write: applying them again changes nothing. */
export interface JobsEffects {
  spiders: SpiderDoc[];
  jobs: JobDoc[];
  activity: JobActivity[];
  /** A project's settings, whole, when they changed. */
  settings?: Record<string, unknown>;
}

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
    case 'spider':
      return decideSpider(state, ctx, request);
    case 'settings':
      return decideSettings(state, ctx, request);
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
    ...(r.jobSettings ? { job_settings: r.jobSettings } : {}),
    ...r.meta,
  };
  let job: JobDoc = {
    key, project: ctx.project, spiderId: spider.id, number: spider.seq, spider: r.spider, state: 'pending', priority: r.priority, units: r.units,
    tags: r.tags, order: ctx.order, ts: ctx.at, unique: r.unique, argsKey, fire, meta, metaTimes: Object.fromEntries(Object.keys(meta).map((k) => [k, ctx.at])),
  };
  effects.activity.push(activityOfState('pending', key, r.by)!);
  if (r.state !== 'pending') {
    job = withState(job, r.state, ctx.at, r.by);
    effects.activity.push(activityOfState(r.state, key, r.by)!);
  }
  effects.jobs.push(job);
  return { outcome: { op: 'push', key, error: null, state: r.state }, effects };
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
  const next = await state.nextPending(ctx.project, r.maxUnits, spiderIds);
  if (!next) return { outcome: { op: 'start', key: null }, effects: { spiders: [], jobs: [], activity: [] } };
  const started = withState(next, 'running', ctx.at, r.by);
  return { outcome: { op: 'start', key: next.key }, effects: { spiders: [], jobs: [withMeta(started, r.fields, ctx.at)], activity: [activityOfState('running', next.key, r.by)!] } };
}

async function decideUpdate(state: JobsState, ctx: RequestContext, r: JobUpdateRequest): Promise<JobsDecision> {
  const effects: JobsEffects = { spiders: [], jobs: [], activity: [] };
  const lines: { prevstate: JobState; key: string }[] = [];
  const errors: string[] = [];
  const changed = new Map<string, JobDoc>();
  for (const u of r.updates) {
    const targets = await targetsOf(state, ctx.project, u.key, changed);
    for (const job of targets) {
      if (u.key.split('/').length === 2 && job.state === 'deleted') continue;
      if (u.state === 'deleted' && job.state !== 'finished' && job.state !== 'deleted') {
        errors.push(`job ${job.key} is ${job.state}: only finished jobs can be deleted`);
        continue;
      }
      let next = u.state ? withState(job, u.state, ctx.at, r.by) : { ...job };
      next = withMeta(next, u.fields, ctx.at);
      if (u.state && u.state !== job.state) {
        // A cancellation is recorded once: when it was asked (cancel/stop), else when a job finishes as cancelled.
        const cancelled = u.state === 'finished' && u.fields.close_reason === 'cancelled' && job.meta.cancelled_by === undefined;
        const a = activityOfState(u.state, job.key, r.by, cancelled);
        if (a) effects.activity.push(a);
      }
      changed.set(job.key, next);
      lines.push({ prevstate: job.state, key: job.key });
    }
  }
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
      const done = withState(job, 'finished', ctx.at, r.by);
      effects.jobs.push(withMeta(done, { close_reason: 'cancelled', cancelled_by: r.by }, ctx.at));
    } else {
      // A running job gets a stop request; its runner finishes it as cancelled.
      effects.jobs.push(withMeta(job, { stop_requested: true, cancelled_by: r.by }, ctx.at));
    }
    effects.activity.push({ event: 'job:cancelled', job: key, user: r.by });
  }
  return { outcome: { op: 'cancel', count: effects.jobs.length }, effects };
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

const nothing = (): JobsEffects => ({ spiders: [], jobs: [], activity: [] });

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
