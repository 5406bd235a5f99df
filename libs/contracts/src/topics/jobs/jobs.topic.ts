import { z } from 'zod';
import { defineTopic, JSON_OBJECT, MILLIS, PROJECT_ID } from '../../topic-contract';

/**
 * Topic `jobs`: every change to a project's jobs, keyed by the project id. One project's
 * job events are therefore totally ordered in one partition, and the jobs decider that
 * owns it is the single decider of job numbers, `unique` pushes, claims by runners and
 * state changes, safe with concurrent writers.
 *
 * A change is asked for by a request (`jobs.<op>-requested`) with an id; the decider
 * appends what it decided as a `jobs.decided` fact, which the views fold and the API
 * reads once it is applied. Replay folds the facts: it never decides again.
 */
export const JOBS_TOPIC = 'jobs';

export type JobState = 'pending' | 'running' | 'finished' | 'deleted';
export const JOB_STATES: readonly JobState[] = ['pending', 'running', 'finished', 'deleted'];

const BY = z.string();
const FIELDS = JSON_OBJECT;
const JOB_STATE = z.enum(JOB_STATES as [JobState, ...JobState[]]);
const JOB_PUSH_REQUEST = z.object({
  op: z.literal('push'),
  spider: z.string().min(1),
  priority: z.number().int(),
  units: z.number().int().positive(),
  tags: z.array(z.string()),
  spiderArgs: z.record(z.string(), z.string()),
  jobSettings: FIELDS.nullable(),
  /** Extra metadata fields (jobq push extra fields, run.json `meta`). */
  meta: FIELDS,
  /** jobq `unique`: refused while an active job has the same value. */
  unique: z.string().nullable(),
  /** run.json: refused ("already scheduled") while the spider has an active job with the same arguments. */
  refuseDuplicateArgs: z.boolean(),
  /** Create the job directly in this state (jobq push `state`, run.json meta.state). */
  state: JOB_STATE,
  spiderType: z.string(),
  by: BY,
  /** A periodic run: at most one job per schedule and slot (ms), whoever asks. */
  fire: z.object({ schedule: z.string(), slot: MILLIS }).nullable(),
});
export type JobPushRequest = z.infer<typeof JOB_PUSH_REQUEST>;

const JOB_START_REQUEST = z.object({
  op: z.literal('start'),
  /** Claim only jobs needing at most this many units (the runner's free capacity). */
  maxUnits: z.number().int().nullable(),
  /**
   * Claim nothing while the project runs this many jobs (its botgroups' `max_running`, as
   * the claimer read it): the limit travels in the request, so a replay decides the same.
   */
  maxRunning: z.number().int().nullable(),
  /** Claim only jobs of these spiders (empty: any). */
  spiders: z.array(z.string()),
  /** Extra fields saved in the job's metadata. */
  fields: FIELDS,
  by: BY,
});
export type JobStartRequest = z.infer<typeof JOB_START_REQUEST>;

const JOB_UPDATE = z.object({
  /** A job key `p/s/j`, or a spider key `p/s` for every non-deleted job of the spider. */
  key: z.string().min(1),
  state: JOB_STATE.nullable(),
  fields: FIELDS,
});
export type JobUpdate = z.infer<typeof JOB_UPDATE>;

const JOB_UPDATE_REQUEST = z.object({ op: z.literal('update'), updates: z.array(JOB_UPDATE), by: BY });
export type JobUpdateRequest = z.infer<typeof JOB_UPDATE_REQUEST>;

const JOB_CANCEL_REQUEST = z.object({ op: z.literal('cancel'), keys: z.array(z.string()), by: BY });
export type JobCancelRequest = z.infer<typeof JOB_CANCEL_REQUEST>;

const JOB_TAGS_REQUEST = z.object({
  op: z.literal('tags'),
  /** Job keys, or every job of `spider` when given. */
  keys: z.array(z.string()),
  spider: z.string().nullable(),
  add: z.array(z.string()),
  remove: z.array(z.string()),
  by: BY,
});
export type JobTagsRequest = z.infer<typeof JOB_TAGS_REQUEST>;

/**
 * Purges a deleted job (storage `DELETE jobs/<p>/<s>/<j>`, the client's `apidelete`): the job
 * leaves every job list, JobQ summary and count for good; its number is never given again.
 */
const JOB_PURGE_REQUEST = z.object({ op: z.literal('purge'), key: z.string().min(1), by: BY });
export type JobPurgeRequest = z.infer<typeof JOB_PURGE_REQUEST>;

/** Ensures a spider exists (`create`) and changes its tags (the v2 spider API). */
const SPIDER_REQUEST = z.object({
  op: z.literal('spider'),
  name: z.string().nullable(),
  id: z.number().int().nullable(),
  create: z.boolean(),
  add: z.array(z.string()),
  remove: z.array(z.string()),
  by: BY,
});
export type SpiderRequest = z.infer<typeof SPIDER_REQUEST>;

/** Project settings (projects/<p>/settings): merge fields, or remove one. */
const SETTINGS_REQUEST = z.object({ op: z.literal('settings'), set: FIELDS, remove: z.string().nullable(), by: BY });
export type SettingsRequest = z.infer<typeof SETTINGS_REQUEST>;

/**
 * Scrapy settings of the project (`spider` null) or of one spider (dash `settings/set.json`):
 * merged key by key into what is there, a null value removing its key. A job scheduled
 * afterwards gets them under its `job_settings`: project, then spider, then the job's own
 * settings, the later winning key by key (the original's layers, sh_scrapy's priorities 10, 30, 40).
 */
const SCRAPY_SETTINGS_REQUEST = z.object({ op: z.literal('scrapy-settings'), spider: z.string().nullable(), set: FIELDS, by: BY });
export type ScrapySettingsRequest = z.infer<typeof SCRAPY_SETTINGS_REQUEST>;

/**
 * A periodic check of the runners of the project's running jobs, appended by the dash role
 * every RUNNER_HEARTBEAT_MS while the project has jobs claimed by runners. The decision
 * uses only what is in the project's stream: the check's time (the event's `occurredAt`,
 * the checker's clock) and the heartbeats before it, never the clock at apply time.
 */
const RUNNERS_CHECK_REQUEST = z.object({
  op: z.literal('check-runners'),
  /** RUNNER_LOST_MS of the checker: a runner silent for this long (checker's clock) is lost. */
  lostMs: MILLIS,
  by: BY,
});
export type RunnersCheckRequest = z.infer<typeof RUNNERS_CHECK_REQUEST>;

const JOBS_REQUEST = z.discriminatedUnion('op', [
  JOB_PUSH_REQUEST,
  JOB_START_REQUEST,
  JOB_UPDATE_REQUEST,
  JOB_CANCEL_REQUEST,
  JOB_TAGS_REQUEST,
  JOB_PURGE_REQUEST,
  SPIDER_REQUEST,
  SETTINGS_REQUEST,
  SCRAPY_SETTINGS_REQUEST,
  RUNNERS_CHECK_REQUEST,
]);
export type JobsRequest = z.infer<typeof JOBS_REQUEST>;

const JOBS_REQUESTED_DATA = z.object({ requestId: z.string().min(1), project: PROJECT_ID, request: JOBS_REQUEST });
export type JobsRequested = z.infer<typeof JOBS_REQUESTED_DATA>;

export const jobsRequestedType = (op: JobsRequest['op']) => `jobs.${op}-requested`;
export const JOBS_REQUESTED_TYPES = ['push', 'start', 'update', 'cancel', 'tags', 'purge', 'spider', 'settings', 'scrapy-settings', 'check-runners'].map((op) =>
  jobsRequestedType(op as JobsRequest['op']),
);

/**
 * `jobs.decided` (key: the project, so it follows its request in the project's stream): what
 * the project's decider decided for one request, appended by the decider (consumer group
 * `jobs-decider`) that owns the project's partition. It is the truth the jobs views fold:
 * replay never decides again. Envelope: the request's actor and correlation id, causation
 * id = the request's event id. `decision` is libs/jobs' `JobsDecision` (the answer and the
 * whole documents to write); `failed` replaces it for a request the decider could not decide
 * (its caller gets an error). The fold applies the first fact of a request (by
 * `requestOffset`) and ignores any later one, so a decision never takes effect twice.
 */
export const JOBS_DECIDED = 'jobs.decided';
const JOBS_DECIDED_DATA = z.object({
  requestId: z.string().min(1),
  project: PROJECT_ID,
  op: z.enum(JOBS_REQUEST.options.map((o) => o.shape.op.value) as [JobsRequest['op'], ...JobsRequest['op'][]]),
  /** The request's offset in the partition both share: the decider's decided-through mark. */
  requestOffset: z.number().int().nonnegative(),
  /** The request's time (the decision's clock), ms. */
  requestedAt: MILLIS,
  /** Bumped whenever the decider's rules change, so the log says which rules decided. */
  deciderVersion: z.number().int().positive(),
  /** libs/jobs' JobsDecision: its fold checks it (the decider is its only writer). */
  decision: z.unknown().optional(),
  failed: z.string().optional(),
});
export type JobsDecided = z.infer<typeof JOBS_DECIDED_DATA>;

/**
 * `jobs.runner-heartbeat`: a runner is alive and runs jobs of the project (key: the project).
 * A runner appends one per project it runs jobs of, every RUNNER_HEARTBEAT_MS; an idle
 * runner appends nothing. It is a fact, not a request: no outcome is recorded.
 */
export const RUNNER_HEARTBEAT = 'jobs.runner-heartbeat';
const RUNNER_HEARTBEAT_DATA = z.object({ project: PROJECT_ID, runner: z.string().min(1) });
export type RunnerHeartbeat = z.infer<typeof RUNNER_HEARTBEAT_DATA>;

/**
 * `jobs.botgroup-changed` (key: `botgroup:<name>`): a botgroup's `max_running` (null: no
 * limit), or `deleted`. A project joins botgroups through its `botgroups` setting.
 */
export const BOTGROUP_CHANGED = 'jobs.botgroup-changed';
const BOTGROUP_CHANGED_DATA = z.object({ name: z.string().min(1), maxRunning: z.number().int().nonnegative().nullable(), deleted: z.boolean() });
export type BotgroupChanged = z.infer<typeof BOTGROUP_CHANGED_DATA>;

/** Requests and facts of a project are keyed by the project; a botgroup's changes by `botgroup:<name>`. */
export const JOBS_CONTRACT = defineTopic(
  [JOBS_TOPIC],
  {
    ...Object.fromEntries(JOBS_REQUESTED_TYPES.map((type) => [type, JOBS_REQUESTED_DATA])),
    [JOBS_DECIDED]: JOBS_DECIDED_DATA,
    [RUNNER_HEARTBEAT]: RUNNER_HEARTBEAT_DATA,
    [BOTGROUP_CHANGED]: BOTGROUP_CHANGED_DATA,
  },
  (_type, d) => ('project' in d ? String(d.project) : `botgroup:${d.name}`),
);
