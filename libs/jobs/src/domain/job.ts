import { createHash } from 'node:crypto';
import { JobState } from '@crawlhub/contracts';

/**
 * A job as the jobs view keeps it: `meta` is the platform's metadata object (served by
 * GET jobs/<key>, merged with the user's own fields); the other fields index it.
 */
export interface JobDoc {
  key: string;
  project: number;
  spiderId: number;
  number: number;
  spider: string;
  state: JobState;
  priority: number;
  units: number;
  tags: string[];
  /** Order of the push in the project's stream: FIFO among equal priorities. */
  order: number;
  /** When the job entered its current state, ms. */
  ts: number;
  unique: string | null;
  /** Identifies the spider arguments, for run.json's "already scheduled". */
  argsKey: string;
  /** `<schedule id>@<slot ms>` for a periodic run, else null. */
  fire: string | null;
  meta: Record<string, unknown>;
  /** field -> when the platform last changed it (ms): a client's later write of the field wins on read. */
  metaTimes: Record<string, number>;
  /**
   * The job's run: the position, in the project's stream, of the request that made it
   * `running` (absent until then). Its token names it, so a token dies with its run.
   */
  run?: number;
}

export interface SpiderDoc {
  project: number;
  id: number;
  name: string;
  /** The last job number handed out (rejected pushes consume numbers too). */
  seq: number;
  tags: string[];
}

export const ACTIVE_STATES: readonly JobState[] = ['pending', 'running'];

/**
 * The state changes JobQ allows (compat-notes §1.6-1.7): a job moves forward only.
 * pending → running (startjob, or update state=running), pending → finished (a cancel, or
 * an update), running → finished, finished → deleted; deleted is final (the original's
 * "restore" is not documented). Setting a job's own state again changes only the fields
 * sent with it: no new `<state>_time`, no activity, the same run. Everything else
 * (finished → running, running → pending, deleting an active job...) is refused: a run
 * that ended never starts again, so neither does its token.
 */
export const STATE_CHANGES: Readonly<Record<JobState, readonly JobState[]>> = {
  pending: ['running', 'finished'],
  running: ['finished'],
  finished: ['deleted'],
  deleted: [],
};

/** Why `from` → `to` is refused, or null when JobQ allows it. */
export function refusedStateChange(key: string, from: JobState, to: JobState): string | null {
  if (from === to || STATE_CHANGES[from].includes(to)) return null;
  if (to === 'deleted') return `job ${key} is ${from}: only finished jobs can be deleted`;
  return `job ${key} is ${from}: it cannot become ${to}`;
}
/** `<state>_time` and `<state>_by` metadata fields of a state. */
export const STATE_FIELDS: Record<JobState, { time: string; by: string }> = {
  pending: { time: 'pending_time', by: 'scheduled_by' },
  running: { time: 'running_time', by: 'started_by' },
  finished: { time: 'finished_time', by: 'completed_by' },
  deleted: { time: 'deleted_time', by: 'deleted_by' },
};

/** The runner that claimed a job (`_runner`, set by crawlhub's runners), or null. */
export function runnerOf(job: JobDoc): string | null {
  return typeof job.meta._runner === 'string' ? job.meta._runner : null;
}

export function argsKeyOf(args: Record<string, string>): string {
  const sorted = Object.keys(args).sort().map((k) => [k, args[k]]);
  return createHash('sha1').update(JSON.stringify(sorted)).digest('hex');
}

export function fireKeyOf(fire: { schedule: string; slot: number }): string {
  return `${fire.schedule}@${fire.slot}`;
}

export function jobKeyOf(project: number, spiderId: number, number: number): string {
  return `${project}/${spiderId}/${number}`;
}

/** Sets metadata fields, stamping the time of those whose value changes. */
export function withMeta(job: JobDoc, fields: Record<string, unknown>, at: number): JobDoc {
  const meta = { ...job.meta };
  const metaTimes = { ...job.metaTimes };
  for (const [k, v] of Object.entries(fields)) {
    if (!(k in meta) || JSON.stringify(meta[k]) !== JSON.stringify(v)) metaTimes[k] = at;
    meta[k] = v;
  }
  return { ...job, meta, metaTimes };
}

/**
 * Moves a job to a state, stamping `<state>_time` and `<state>_by` as the original does; a
 * job that becomes `running` gets its run (`order`: the request's place in the project's stream).
 */
export function withState(job: JobDoc, state: JobState, ctx: { at: number; order: number }, by: string): JobDoc {
  const f = STATE_FIELDS[state];
  const moved: JobDoc = { ...withMeta(job, { state, [f.time]: ctx.at, [f.by]: by }, ctx.at), state, ts: ctx.at };
  if (state === 'running') moved.run = ctx.order;
  return moved;
}

/** The activity message crawlhub records for a job event. */
export interface JobActivity {
  event: 'job:scheduled' | 'job:started' | 'job:completed' | 'job:cancelled' | 'job:deleted';
  job: string;
  user: string;
  /** Why the platform itself finished the job (a lost runner), with its close reason. */
  close_reason?: string;
  message?: string;
}

export function activityOfState(state: JobState, job: string, user: string, cancelled = false): JobActivity | null {
  if (cancelled) return { event: 'job:cancelled', job, user };
  switch (state) {
    case 'pending':
      return { event: 'job:scheduled', job, user };
    case 'running':
      return { event: 'job:started', job, user };
    case 'finished':
      return { event: 'job:completed', job, user };
    case 'deleted':
      return { event: 'job:deleted', job, user };
  }
}
