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

/** `<state>_time` and `<state>_by` metadata fields of a state. */
export const STATE_FIELDS: Record<JobState, { time: string; by: string }> = {
  pending: { time: 'pending_time', by: 'scheduled_by' },
  running: { time: 'running_time', by: 'started_by' },
  finished: { time: 'finished_time', by: 'completed_by' },
  deleted: { time: 'deleted_time', by: 'deleted_by' },
};

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

/** Moves a job to a state, stamping `<state>_time` and `<state>_by` as the original does. */
export function withState(job: JobDoc, state: JobState, at: number, by: string): JobDoc {
  const f = STATE_FIELDS[state];
  return { ...withMeta(job, { state, [f.time]: at, [f.by]: by }, at), state, ts: at };
}

/** The activity message crawlhub records for a job event. */
export interface JobActivity {
  event: 'job:scheduled' | 'job:started' | 'job:completed' | 'job:cancelled' | 'job:deleted';
  job: string;
  user: string;
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
