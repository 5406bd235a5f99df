/**
 * The JSON the public APIs answer, as types: the controllers build their answers as these
 * types and the web console (libs/console/ui) reads the answers as them, so a change of an
 * answer's shape breaks the console's build, not its users. Types only, importing nothing:
 * the browser bundle takes no code from here, and the console's type check (DOM, no Node)
 * reads this file as it is (docs/DESIGN.md, "Web console").
 */

/** An entry of dash `jobs/list.json` (and of each line of `jobs/list.jl`). */
export interface DashJob {
  id: string;
  spider: string;
  state: string;
  priority: number;
  tags: string[];
  version: unknown;
  spider_type: unknown;
  started_time: string | undefined;
  updated_time: string | undefined;
  /** ms in the current state. */
  elapsed: number;
  items_scraped: number;
  responses_received: number;
  errors_count: number;
  logs: number;
  /** A finished job's only. */
  close_reason?: unknown;
}

/** An entry of dash `schedules/list.json` (periodic jobs). */
export interface DashSchedule {
  id: string;
  spider: string;
  cron: string;
  priority: number;
  units: number;
  tags: string[];
  spider_args: Record<string, string>;
  enabled: boolean;
  /** ISO time of the next fire; null while paused. */
  next_run: string | null;
}

/** An entry of dash `deploys/list.json`, newest first. */
export interface DashDeploy {
  deploy_id: number;
  version: string;
  stack: string;
  state: string;
  current: boolean;
  deleted: boolean;
  spiders: string[];
  failure: string | null;
  /** ms */
  requested_time: number;
  /** ms; null until built. */
  built_time: number | null;
  requested_by: string;
}

/** An entry of dash `keys/list.json` (admin only). */
export interface DashKey {
  key_id: string;
  label: string;
  admin: boolean;
  projects: number[];
  capabilities: string[];
}

/** The comment object of the dash comments API, keys in the documented order. */
export interface CommentObject {
  id: number;
  created: string;
  archived: string | null;
  author: string;
  avatar: string;
  text: string;
  editable: boolean;
}

/** One line of a job's or a project's history (dash `jobs/audit.json`, `crawlhub audit --json`). */
export interface AuditEntry {
  at: string;
  /** topic/partition@offset */
  position: string;
  type: string;
  version: number;
  eventId: string;
  actor: { kind: 'key' | 'job' | 'system'; id: string };
  correlationId: string;
  causationId: string | null;
  /** For a fact: the request it decided, the rules' version and what was decided. */
  request?: { op: string } & Record<string, unknown>;
  deciderVersion?: number;
  outcome?: unknown;
  failed?: string;
  /** Jobs the decision wrote (key and state after it) or purged. */
  jobs?: { key: string; state: string }[];
  purged?: string[];
  /** For a job's own event: its data, and how many records it carried. */
  data?: unknown;
  records?: number;
}

/** An entry of dash `usage/fetch.json` and `usage/extraction.json`: the start of its interval and its counters. */
export type WorkUsageEntry<C extends string = string> = { time_gte: string } & Record<C, number>;

/** An entry of the usage stats API's GET /stats, fields in the original's order. */
export interface UsageStatsEntry {
  time_gte: string;
  clean: number;
  failed: number;
  concurrency: number;
  total_time: number;
  traffic: number;
}

/** Storage `GET /{items,logs,requests}/<p>/<s>/<j>/stats`. */
export interface JobRecordStats {
  counts: Record<string, number>;
  totals: { input_bytes: number; input_values: number };
}

/** Storage `GET /{items,logs,requests}/<p>/<s>/<j>/rates`. */
export interface JobRecordRates {
  /** The bucket, seconds. */
  bucket: number;
  /** [start of the bucket (ms), records], oldest first; empty buckets left out. */
  rates: [number, number][];
}

/** The console's session (`/console/session`): who is signed in, and the proof its changing requests carry. */
export interface ConsoleSession {
  status: 'ok';
  key_id: string;
  admin: boolean;
  projects: number[];
  capabilities: readonly string[] | 'all';
  csrf: string | null;
}
