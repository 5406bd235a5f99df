import { JobState } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { JobsDecision, JobsState, RunnerLiveness } from '../domain/decide-jobs';
import { JobDoc, SpiderDoc } from '../domain/job';

export const JOBS_VIEW = Symbol('JOBS_VIEW');

export interface JobFilter {
  project: number;
  spiderIds?: number[];
  states?: JobState[];
  /** Bounds on `ts` (time the job entered its current state), ms, inclusive. */
  startts?: number;
  endts?: number;
  /** Any of these tags (OR). */
  hasTags?: string[];
  /** None of these tags (AND). */
  lacksTags?: string[];
  keys?: string[];
  /** Only jobs newer (in list order) than this job. */
  newerThan?: { ts: number; order: number };
}

/**
 * Jobs, spiders and the decisions of job requests, folded from the decider's facts
 * (`jobs.decided`). The decider reads it through JobsState; the projection writes whole
 * documents, so applying twice changes nothing.
 */
export interface JobsView extends JobsState {
  saveOutcome(at: LogPosition, requestId: string, decision: JobsDecision): Promise<void>;
  /**
   * The offset of the last request of a partition of the jobs topic whose fact is folded
   * (-1: none): every request up to it is decided. Written with the fact's documents.
   */
  decidedThrough(partition: number): Promise<number>;
  markDecided(at: LogPosition, partition: number, requestOffset: number): Promise<void>;
  /**
   * Whether the view was built by a release that decided requests while projecting them
   * (before decisions were facts): the decider must not decide on it (its state is the end
   * of the log, not the fold of facts) until `crawlhub replay` rebuilds it.
   */
  builtBeforeFacts(): Promise<boolean>;
  putSpiders(at: LogPosition, spiders: SpiderDoc[]): Promise<void>;
  putJobs(at: LogPosition, jobs: JobDoc[]): Promise<void>;
  /** Removes jobs (purged): no list, count or lookup finds them any more. */
  dropJobs(at: LogPosition, keys: string[]): Promise<void>;
  putSettings(at: LogPosition, project: number, settings: Record<string, unknown>): Promise<void>;
  /** Writes the Scrapy settings of the project (`spider` null) or of a spider, whole. */
  putScrapySettings(at: LogPosition, project: number, spider: string | null, settings: Record<string, unknown>): Promise<void>;
  /**
   * Writes liveness rows and forgets runners of a project. `heardAt` is the offset, in the
   * project's partition, of the event the rows come from (default: `at`'s): a row that says
   * the runner was heard remembers it; a silence (a check's `silentSince`) is written only if
   * the runner was not heard after it (a heartbeat appended after the check's request and
   * folded before its fact keeps the runner heard, as in log order).
   */
  putRunners(at: LogPosition, project: number, runners: { put: RunnerLiveness[]; drop: string[] }, heardAt?: number): Promise<void>;
  /** A botgroup's `max_running` (null: no limit); `undefined` deletes the botgroup. */
  putBotgroup(at: LogPosition, name: string, maxRunning: number | null | undefined): Promise<void>;
  /** The botgroups among `names` that exist, with their `max_running`. */
  botgroups(names: string[]): Promise<{ name: string; maxRunning: number | null }[]>;
  /** Projects with running jobs claimed by a runner (`_runner`): the ones runner checks are for. */
  projectsWithRunnerJobs(): Promise<number[]>;

  /** Newest first: by `ts`, then by push order. */
  list(filter: JobFilter, page: { offset: number; limit: number }): Promise<JobDoc[]>;
  count(filter: JobFilter): Promise<number>;
  spiders(project: number): Promise<SpiderDoc[]>;
  /** The latest slot (ms) a schedule fired, from the jobs its fires created; null when none. */
  lastFire(project: number, schedule: string): Promise<number | null>;
  /** Projects that have jobs, with their number of jobs per state. */
  stateCounts(project?: number): Promise<{ project: number; counts: Record<JobState, number> }[]>;
}
