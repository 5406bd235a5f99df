import { resolve } from 'node:path';

export const APP_ROLES = ['storage', 'dash', 'proxy', 'fetch', 'extract', 'projector', 'worker', 'runner'] as const;
export type AppRole = (typeof APP_ROLES)[number];

/** Everything crawlhub reads from its environment, parsed and checked once at start. */
export interface CrawlhubConfig {
  dataDir: string;
  roles: AppRole[];
  /** `namespace` prefixes every topic and consumer group (several deployments on one Kafka). */
  eventLog: { kind: 'sqlite'; partitions: number; namespace: string } | { kind: 'kafka'; partitions: number; namespace: string; brokers: string[] };
  viewStore: { kind: 'sqlite' } | { kind: 'mongodb'; uri: string; database: string };
  adminKey: string | null;
  /** Signs job tokens; every process of a deployment needs the same one (embedded: kept in DATA_DIR). */
  jobTokenSecret: string | null;
  host: string;
  ports: { dash: number; storage: number; fetch: number; extract: number; proxy: number; stats: number };
  allowPrivateTargets: boolean;
  /** How long a write waits for the views it touched to catch up before answering 503. */
  readYourWritesTimeoutMs: number;
  /** How often the scheduler looks for periodic jobs that are due. */
  schedulerIntervalMs: number;
  /** Largest single record (item, log line, request) accepted by the storage API. */
  maxRecordBytes: number;
  /** Request bodies are cut into log events of about this many bytes. */
  eventChunkBytes: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  runner: RunnerConfig;
  frontier: FrontierConfig;
  collections: CollectionsConfig;
  proxyStats: ProxyStatsConfig;
}

/** The proxy's usage accounting (libs/proxy-stats). */
export interface ProxyStatsConfig {
  /** How often a proxy process appends its aggregated usage to the log (and at shutdown). */
  flushMs: number;
  /** How often the concurrency of each active user is sampled. */
  sampleMs: number;
}

/** Key-value collections of the storage API. */
export interface CollectionsConfig {
  /** Records of cs and vcs collections expire this long after their `_ts`. */
  expirySeconds: number;
  /** vs and vcs collections keep this many versions of each record (the newest included). */
  versions: number;
  /** Records examined by one count or delete-by-filter call before it answers with `nextstart`. */
  scanBatch: number;
}

/** The crawl frontier (HCF) of the storage API. */
export interface FrontierConfig {
  /** Largest body of one frontier POST (requests or deleted ids), bytes: 413 above. */
  maxPostBytes: number;
  /** Batches one `q/count` call scans before it answers with `nextstart`. */
  countBatches: number;
}

/** The runner role: runs pending jobs as child processes. */
export interface RunnerConfig {
  /** Capacity in units (a job takes its `units`). */
  units: number;
  /** null: the id kept in DATA_DIR/runner-id (created on first start). */
  id: string | null;
  /** How often it looks for pending jobs and for stop requests of its running jobs. */
  pollMs: number;
  /** After SIGTERM, how long a stopped job has before SIGKILL. */
  stopGraceMs: number;
  /** SHUB_STORAGE given to jobs; null: http://HOST:STORAGE_PORT/. */
  storageUrl: string | null;
  /** SHUB_APIURL given to jobs; null: http://HOST:DASH_PORT/api/. */
  apiUrl: string | null;
  /** The runner's own environment variables every job inherits (RUNNER_PASS_ENV), resolved at start. */
  passEnv: Record<string, string>;
}

/** Variables of the runner's environment that jobs inherit by default (a trailing * is a prefix). */
export const RUNNER_PASS_ENV_DEFAULT = 'PATH,HOME,USER,LOGNAME,SHELL,LANG,LANGUAGE,LC_*,TZ,TMPDIR';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

/** name, default, meaning: the table the README shows. */
export const CONFIG_DOCS: [string, string, string][] = [
  ['DATA_DIR', './data', 'where the embedded log and views live'],
  ['APP_ROLE', 'all', 'which app(s) this process runs: storage, dash, proxy, fetch, extract, projector, worker, runner, all (comma list allowed)'],
  ['EVENT_LOG', 'sqlite', '`sqlite` or `kafka`'],
  ['EVENT_LOG_PARTITIONS', '8', 'partitions of every topic the platform creates'],
  ['KAFKA_BROKERS', '—', 'comma list, for `EVENT_LOG=kafka`'],
  ['EVENT_LOG_NAMESPACE', '—', 'prefix of every topic and consumer group, to share one Kafka cluster between deployments'],
  ['VIEW_STORE', 'sqlite', '`sqlite` or `mongodb`'],
  ['MONGODB_URI', '—', 'for `VIEW_STORE=mongodb`'],
  ['MONGODB_DATABASE', 'crawlhub', 'database name used in MongoDB'],
  ['CRAWLHUB_ADMIN_KEY', 'created on first start and printed', 'the admin API key (sees every project)'],
  ['JOB_TOKEN_SECRET', 'created on first start, kept in DATA_DIR/job-token-secret', 'signs the job tokens given to running jobs (set it on every process of a distributed deployment)'],
  ['HOST', '127.0.0.1', 'listen address of every port'],
  ['DASH_PORT STORAGE_PORT FETCH_PORT EXTRACT_PORT PROXY_PORT STATS_PORT', '8001 8002 8003 8004 8010 8011', 'listen ports'],
  ['ALLOW_PRIVATE_TARGETS', 'false', 'let fetch, render, extraction and the proxy reach private and loopback addresses'],
  ['READ_YOUR_WRITES_TIMEOUT_MS', '10000', 'how long a write waits for its views before answering 503'],
  ['SCHEDULER_INTERVAL_MS', '10000', 'how often periodic jobs are checked (a run starts at most this late)'],
  ['MAX_RECORD_BYTES', '1048576', 'largest item, log line, request or collection record (413 above)'],
  ['EVENT_CHUNK_BYTES', '1048576', 'request bodies are cut into log events of about this size'],
  ['LOG_LEVEL', 'info', 'debug, info, warn or error'],
  ['COLLECTION_EXPIRY_SECONDS', '2592000', 'records of cached collections (cs, vcs) expire this long after they were written (30 days)'],
  ['COLLECTION_VERSIONS', '3', 'versions kept of each record of versioned collections (vs, vcs), the newest included'],
  ['COLLECTION_SCAN_BATCH', '100000', 'records one collection count or delete-by-filter call examines before answering with `nextstart`'],
  ['FRONTIER_MAX_POST_BYTES', '4194304', 'largest body of one crawl frontier POST (requests, or batch ids to delete); 413 above'],
  ['FRONTIER_COUNT_BATCHES', '10000', 'batches one frontier `q/count` call scans before it answers with `nextstart`'],
  ['PROXY_STATS_FLUSH_MS', '10000', 'how often a proxy process appends its aggregated usage statistics to the log (also at shutdown); the stats API lags by up to this much'],
  ['PROXY_STATS_SAMPLE_MS', '1000', 'how often the proxy samples each active user\'s concurrency (the peak of requests in flight since the last sample)'],
  ['RUNNER_UNITS', '4', 'capacity of a runner in units (a job takes its `units`, 1 to 6)'],
  ['RUNNER_ID', 'created on first start, kept in DATA_DIR/runner-id', 'names the runner in the jobs it claims; a restarted runner finishes its own orphaned jobs as failed (give each runner its own id)'],
  ['RUNNER_POLL_MS', '1000', 'how often a runner looks for pending jobs and for stop requests'],
  ['RUNNER_STOP_GRACE_MS', '10000', 'after SIGTERM, how long a stopped job has before SIGKILL'],
  ['RUNNER_STORAGE_URL', 'http://HOST:STORAGE_PORT/', 'SHUB_STORAGE given to jobs (the storage API as jobs reach it)'],
  ['RUNNER_API_URL', 'http://HOST:DASH_PORT/api/', 'SHUB_APIURL given to jobs (the dash API as jobs reach it)'],
  ['RUNNER_PASS_ENV', RUNNER_PASS_ENV_DEFAULT, 'the runner\'s environment variables that jobs inherit (comma list, `X_*` for a prefix); nothing else of it reaches a job'],
];

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): CrawlhubConfig {
  const problems: string[] = [];
  const str = (name: string, fallback: string) => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? fallback : v.trim();
  };
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = str(name, String(fallback));
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name}=${raw} must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return n;
  };
  const bool = (name: string, fallback: boolean) => {
    const raw = str(name, String(fallback)).toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name}=${raw} must be true or false`);
    return fallback;
  };
  const oneOf = <T extends string>(name: string, fallback: T, allowed: readonly T[]): T => {
    const raw = str(name, fallback) as T;
    if (!allowed.includes(raw)) {
      problems.push(`${name}=${raw} must be one of ${allowed.join(', ')}`);
      return fallback;
    }
    return raw;
  };

  const roleNames = str('APP_ROLE', 'all').split(',').map((r) => r.trim()).filter(Boolean);
  const roles = new Set<AppRole>();
  for (const r of roleNames) {
    if (r === 'all') APP_ROLES.forEach((x) => roles.add(x));
    else if ((APP_ROLES as readonly string[]).includes(r)) roles.add(r as AppRole);
    else problems.push(`APP_ROLE: unknown role ${r} (known: all, ${APP_ROLES.join(', ')})`);
  }

  const partitions = int('EVENT_LOG_PARTITIONS', 8, 1, 1024);
  const namespace = str('EVENT_LOG_NAMESPACE', '');
  if (namespace !== '' && !/^[a-z][a-z0-9-]{0,40}$/.test(namespace)) problems.push('EVENT_LOG_NAMESPACE must be lowercase letters, digits and -, starting with a letter');
  const logKind = oneOf('EVENT_LOG', 'sqlite', ['sqlite', 'kafka'] as const);
  let eventLog: CrawlhubConfig['eventLog'] = { kind: 'sqlite', partitions, namespace };
  if (logKind === 'kafka') {
    const brokers = str('KAFKA_BROKERS', '').split(',').map((b) => b.trim()).filter(Boolean);
    if (brokers.length === 0) problems.push('EVENT_LOG=kafka needs KAFKA_BROKERS (host:port, comma separated)');
    eventLog = { kind: 'kafka', partitions, namespace, brokers };
  }

  const viewKind = oneOf('VIEW_STORE', 'sqlite', ['sqlite', 'mongodb'] as const);
  let viewStore: CrawlhubConfig['viewStore'] = { kind: 'sqlite' };
  if (viewKind === 'mongodb') {
    const uri = str('MONGODB_URI', '');
    if (!/^mongodb(\+srv)?:\/\//.test(uri)) problems.push('VIEW_STORE=mongodb needs MONGODB_URI (mongodb://...)');
    viewStore = { kind: 'mongodb', uri, database: str('MONGODB_DATABASE', 'crawlhub') };
  }

  const adminKey = str('CRAWLHUB_ADMIN_KEY', '') || null;
  if (adminKey !== null && !/^[A-Za-z0-9_-]{16,128}$/.test(adminKey)) {
    problems.push('CRAWLHUB_ADMIN_KEY must be 16 to 128 letters, digits, _ or -');
  }

  const runnerId = str('RUNNER_ID', '') || null;
  if (runnerId !== null && !/^[A-Za-z0-9_.:-]{1,128}$/.test(runnerId)) problems.push('RUNNER_ID must be 1 to 128 letters, digits, _ . : or -');
  const url = (name: string): string | null => {
    const raw = str(name, '');
    if (raw === '') return null;
    if (!/^https?:\/\/[^\s]+$/.test(raw)) {
      problems.push(`${name}=${raw} must be an http(s) URL`);
      return null;
    }
    return raw.endsWith('/') ? raw : `${raw}/`;
  };

  const config: CrawlhubConfig = {
    dataDir: resolve(str('DATA_DIR', './data')),
    roles: APP_ROLES.filter((r) => roles.has(r)),
    eventLog,
    viewStore,
    adminKey,
    jobTokenSecret: str('JOB_TOKEN_SECRET', '') || null,
    host: str('HOST', '127.0.0.1'),
    ports: {
      dash: int('DASH_PORT', 8001, 0, 65535),
      storage: int('STORAGE_PORT', 8002, 0, 65535),
      fetch: int('FETCH_PORT', 8003, 0, 65535),
      extract: int('EXTRACT_PORT', 8004, 0, 65535),
      proxy: int('PROXY_PORT', 8010, 0, 65535),
      stats: int('STATS_PORT', 8011, 0, 65535),
    },
    allowPrivateTargets: bool('ALLOW_PRIVATE_TARGETS', false),
    readYourWritesTimeoutMs: int('READ_YOUR_WRITES_TIMEOUT_MS', 10_000, 10, 600_000),
    schedulerIntervalMs: int('SCHEDULER_INTERVAL_MS', 10_000, 100, 3_600_000),
    maxRecordBytes: int('MAX_RECORD_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    eventChunkBytes: int('EVENT_CHUNK_BYTES', 1024 * 1024, 64 * 1024, 8 * 1024 * 1024),
    logLevel: oneOf('LOG_LEVEL', 'info', ['debug', 'info', 'warn', 'error'] as const),
    collections: {
      expirySeconds: int('COLLECTION_EXPIRY_SECONDS', 30 * 24 * 3600, 1, 100 * 365 * 24 * 3600),
      versions: int('COLLECTION_VERSIONS', 3, 1, 100),
      scanBatch: int('COLLECTION_SCAN_BATCH', 100_000, 1, 10_000_000),
    },
    frontier: {
      maxPostBytes: int('FRONTIER_MAX_POST_BYTES', 4 * 1024 * 1024, 1024, 15 * 1024 * 1024),
      countBatches: int('FRONTIER_COUNT_BATCHES', 10_000, 1, 10_000_000),
    },
    proxyStats: {
      flushMs: int('PROXY_STATS_FLUSH_MS', 10_000, 10, 3_600_000),
      sampleMs: int('PROXY_STATS_SAMPLE_MS', 1000, 10, 60_000),
    },
    runner: {
      units: int('RUNNER_UNITS', 4, 1, 100_000),
      id: runnerId,
      pollMs: int('RUNNER_POLL_MS', 1000, 10, 600_000),
      stopGraceMs: int('RUNNER_STOP_GRACE_MS', 10_000, 0, 3_600_000),
      storageUrl: url('RUNNER_STORAGE_URL'),
      apiUrl: url('RUNNER_API_URL'),
      passEnv: passEnvOf(env, str('RUNNER_PASS_ENV', RUNNER_PASS_ENV_DEFAULT)),
    },
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** The variables of `env` named by a comma list (`NAME`, or `PREFIX*`). */
function passEnvOf(env: Env, list: string): Record<string, string> {
  const patterns = list.split(',').map((p) => p.trim()).filter(Boolean);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (patterns.some((p) => (p.endsWith('*') ? name.startsWith(p.slice(0, -1)) : name === p))) out[name] = value;
  }
  return out;
}
