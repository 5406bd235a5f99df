/**
 * Topic `jobs`: every change to a project's jobs, keyed by the project id. One project's
 * job events are therefore totally ordered in one partition, and the projection that
 * applies them is the single decider of job numbers, `unique` pushes, claims by runners
 * and state changes: deterministic on replay, safe with concurrent writers.
 *
 * Each event is a request (`jobs.<op>-requested`) with an id; the projection records
 * the outcome under that id, which the API reads once its event is applied.
 */
export const JOBS_TOPIC = 'jobs';

export type JobState = 'pending' | 'running' | 'finished' | 'deleted';
export const JOB_STATES: readonly JobState[] = ['pending', 'running', 'finished', 'deleted'];

export interface JobPushRequest {
  op: 'push';
  spider: string;
  priority: number;
  units: number;
  tags: string[];
  spiderArgs: Record<string, string>;
  jobSettings: Record<string, unknown> | null;
  /** Extra metadata fields (jobq push extra fields, run.json `meta`). */
  meta: Record<string, unknown>;
  /** jobq `unique`: refused while an active job has the same value. */
  unique: string | null;
  /** run.json: refused ("already scheduled") while the spider has an active job with the same arguments. */
  refuseDuplicateArgs: boolean;
  /** Create the job directly in this state (jobq push `state`, run.json meta.state). */
  state: JobState;
  spiderType: string;
  by: string;
  /** A periodic run: at most one job per schedule and slot (ms), whoever asks. */
  fire: { schedule: string; slot: number } | null;
}

export interface JobStartRequest {
  op: 'start';
  /** Claim only jobs needing at most this many units (the runner's free capacity). */
  maxUnits: number | null;
  /**
   * Claim nothing while the project runs this many jobs (its botgroups' `max_running`, as
   * the claimer read it): the limit travels in the request, so a replay decides the same.
   */
  maxRunning: number | null;
  /** Claim only jobs of these spiders (empty: any). */
  spiders: string[];
  /** Extra fields saved in the job's metadata. */
  fields: Record<string, unknown>;
  by: string;
}

export interface JobUpdate {
  /** A job key `p/s/j`, or a spider key `p/s` for every non-deleted job of the spider. */
  key: string;
  state: JobState | null;
  fields: Record<string, unknown>;
}

export interface JobUpdateRequest {
  op: 'update';
  updates: JobUpdate[];
  by: string;
}

export interface JobCancelRequest {
  op: 'cancel';
  keys: string[];
  by: string;
}

export interface JobTagsRequest {
  op: 'tags';
  /** Job keys, or every job of `spider` when given. */
  keys: string[];
  spider: string | null;
  add: string[];
  remove: string[];
  by: string;
}

/**
 * Purges a deleted job (storage `DELETE jobs/<p>/<s>/<j>`, the client's `apidelete`): the job
 * leaves every job list, JobQ summary and count for good; its number is never given again.
 */
export interface JobPurgeRequest {
  op: 'purge';
  key: string;
  by: string;
}

/** Ensures a spider exists (`create`) and changes its tags (the v2 spider API). */
export interface SpiderRequest {
  op: 'spider';
  name: string | null;
  id: number | null;
  create: boolean;
  add: string[];
  remove: string[];
  by: string;
}

/** Project settings (projects/<p>/settings): merge fields, or remove one. */
export interface SettingsRequest {
  op: 'settings';
  set: Record<string, unknown>;
  remove: string | null;
  by: string;
}

/**
 * Scrapy settings of the project (`spider` null) or of one spider (dash `settings/set.json`):
 * merged key by key into what is there, a null value removing its key. A job scheduled
 * afterwards gets them under its `job_settings`: project, then spider, then the job's own
 * settings, the later winning key by key (the original's layers, sh_scrapy's priorities 10, 30, 40).
 */
export interface ScrapySettingsRequest {
  op: 'scrapy-settings';
  spider: string | null;
  set: Record<string, unknown>;
  by: string;
}

/**
 * A periodic check of the runners of the project's running jobs, appended by the dash role
 * every RUNNER_HEARTBEAT_MS while the project has jobs claimed by runners. The decision
 * uses only what is in the project's stream: the check's time (the event's `occurredAt`,
 * the checker's clock) and the heartbeats before it, never the clock at apply time.
 */
export interface RunnersCheckRequest {
  op: 'check-runners';
  /** RUNNER_LOST_MS of the checker: a runner silent for this long (checker's clock) is lost. */
  lostMs: number;
  by: string;
}

export type JobsRequest =
  | JobPushRequest
  | JobStartRequest
  | JobUpdateRequest
  | JobCancelRequest
  | JobTagsRequest
  | JobPurgeRequest
  | SpiderRequest
  | SettingsRequest
  | ScrapySettingsRequest
  | RunnersCheckRequest;

export interface JobsRequested {
  requestId: string;
  project: number;
  request: JobsRequest;
}

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
export interface JobsDecided {
  requestId: string;
  project: number;
  op: JobsRequest['op'];
  /** The request's offset in the partition both share: the decider's decided-through mark. */
  requestOffset: number;
  /** The request's time (the decision's clock), ms. */
  requestedAt: number;
  /** Bumped whenever the decider's rules change, so the log says which rules decided. */
  deciderVersion: number;
  decision?: unknown;
  failed?: string;
}

/**
 * `jobs.runner-heartbeat`: a runner is alive and runs jobs of the project (key: the project).
 * A runner appends one per project it runs jobs of, every RUNNER_HEARTBEAT_MS; an idle
 * runner appends nothing. It is a fact, not a request: no outcome is recorded.
 */
export const RUNNER_HEARTBEAT = 'jobs.runner-heartbeat';
export interface RunnerHeartbeat {
  project: number;
  runner: string;
}

/**
 * `jobs.botgroup-changed` (key: `botgroup:<name>`): a botgroup's `max_running` (null: no
 * limit), or `deleted`. A project joins botgroups through its `botgroups` setting.
 */
export const BOTGROUP_CHANGED = 'jobs.botgroup-changed';
export interface BotgroupChanged {
  name: string;
  maxRunning: number | null;
  deleted: boolean;
}
