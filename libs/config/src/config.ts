import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { isAddressOrRange } from '@crawlhub/net';

export const APP_ROLES = ['storage', 'dash', 'proxy', 'stats', 'fetch', 'extract', 'projector', 'worker', 'runner'] as const;
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
  /** Addresses and CIDR ranges that fetch, render, extraction and the proxy may reach although they are not public (docs/proxy.md "SSRF rules"). */
  allowTargetAddresses: string[];
  /** How long a write waits for the views it touched to catch up before answering 503. */
  readYourWritesTimeoutMs: number;
  /** How often the storage API's event streams send a keepalive comment, so proxies keep idle connections. */
  streamKeepaliveMs: number;
  /** How often the scheduler looks for periodic jobs that are due. */
  schedulerIntervalMs: number;
  /** Largest single record (item, log line, request) accepted by the storage API. */
  maxRecordBytes: number;
  /** Request bodies are cut into log events of about this many bytes. */
  eventChunkBytes: number;
  /**
   * V8's heap growth between full collections, in percent of what the last one kept (0: V8's
   * own factor, up to 4x). The proxy service sets it (docs/proxy.md): its objects live one
   * request, and V8's own factor let its RSS swing by 60 MB with the request rate.
   */
  heapGrowingPercent: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** NO_COLOR (https://no-color.org) set and not empty: log lines never carry colour codes. */
  noColor: boolean;
  /** `json`: one JSON object per log line, and one per HTTP request answered, with its correlation id. */
  logFormat: 'text' | 'json';
  ops: OpsConfig;
  runner: RunnerConfig;
  deploys: DeploysConfig;
  frontier: FrontierConfig;
  collections: CollectionsConfig;
  proxy: ProxyConfig;
  proxyStats: ProxyStatsConfig;
  proxySessions: ProxySessionsConfig;
  render: RenderConfig;
  fetch: FetchConfig;
  extraction: ExtractionConfig;
  worker: WorkerConfig;
  console: ConsoleConfig;
}

/** The web console the dash role serves at / (libs/console, docs/console.md). */
export interface ConsoleConfig {
  /** The storage API the console forwards /storage/ to; null: http://HOST:STORAGE_PORT/. */
  storageUrl: string | null;
  /** The proxy usage stats API the console forwards /stats/ to; null: http://HOST:STATS_PORT/. */
  statsUrl: string | null;
  /** A console session (cookie) ends this long after sign-in. */
  sessionHours: number;
}

/** Health, readiness and metrics of every process (libs/ops, docs/operations.md). */
export interface OpsConfig {
  /** A port of its own serving /healthz, /readyz and /metrics (without a key); null: none. */
  port: number | null;
  /** Where OPS_PORT listens (loopback by default: the metrics there need no key). */
  host: string;
  /** GET /metrics on the API ports without a key (otherwise it needs the admin key). */
  metricsPublic: boolean;
  /** /readyz fails while the views are more than this many events behind the log. */
  readyMaxLag: number;
  /** /readyz fails when the event log or the view store does not answer within this time. */
  readyTimeoutMs: number;
  /** After SIGTERM, how long a process keeps serving with /readyz failing before it stops accepting connections. */
  shutdownDrainMs: number;
}

/** The fetch API (libs/fetch, :8003). */
export interface FetchConfig {
  /** How long a fetch may take end to end: the request's deadline; no answer by then: 503. */
  deadlineMs: number;
  /** Larger responses are a failure (data_error): the spec's 10 MB fetch response limit. */
  maxResponseBytes: number;
}

/** The extraction API (libs/extraction-batches, :8004). */
export interface ExtractionConfig {
  /** A query not done by then is answered `query timed out` (the original's 10 minutes). */
  queryTimeoutMs: number;
  /** Queries of one key in flight in one API process beyond which a batch is refused (429 user-rate-limit-exceeded). */
  userQueriesInFlight: number;
  /** Queries of all keys in flight in one API process beyond which a batch is refused (429 rate-limit-exceeded). */
  queriesInFlight: number;
  /** Threads of an extraction worker that run the engine (0: its main thread). */
  threads: number;
  /** A page's extraction running longer fails and its thread is replaced. */
  pageTimeoutMs: number;
}

export const WORKER_KINDS = ['plain', 'render', 'extract'] as const;
export type WorkerKind = (typeof WORKER_KINDS)[number];

/** The worker role: takes fetch and extraction requests from the log and does them through the proxy. */
export interface WorkerConfig {
  /** Which requests this process takes: plain fetches, rendered ones, extraction queries (any of them). */
  kinds: WorkerKind[];
  /** Requests one worker process works on at once. */
  concurrency: number;
  /** The proxy the workers fetch through; null: http://127.0.0.1:PROXY_PORT (the platform's own). */
  proxyUrl: string | null;
}

/** The browser render pool (libs/render). */
export interface RenderConfig {
  /** The Chromium binary (Debian's headless shell by default; never a downloaded browser). */
  chromiumPath: string;
  /** Renders at once: one kept browser, context and page each. */
  concurrency: number;
  /** Renders waiting for a page beyond which render() fails at once with queue_full. */
  queueLimit: number;
  /** Default time of one render, counted from when it starts on a page (not when queued). */
  timeoutMs: number;
  /** A browser is replaced after this many pages... */
  recyclePages: number;
  /** ...or once its process tree uses more than this much memory (MB). */
  recycleRssMb: number;
}

/** The proxy's usage accounting (libs/proxy-stats). */
export interface ProxyStatsConfig {
  /** How often a proxy process appends its aggregated usage to the log (and at shutdown). */
  flushMs: number;
  /** How often the concurrency of each active user is sampled. */
  sampleMs: number;
}

/** The proxy's sessions (libs/proxy-sessions). */
export interface ProxySessionsConfig {
  /** A session unused for longer than this expires. */
  idleMs: number;
  /** Active sessions per API key; one more answers 400 user_session_limit. */
  limit: number;
  /** How often a proxy process appends the last uses of its sessions to the log (and at shutdown). */
  touchMs: number;
}

/** One outgoing exit of the smart proxy: a local source address, or an upstream proxy. */
export type ProxyExitConfig = (
  | { kind: 'local'; localAddress: string | null }
  | { kind: 'http' | 'https' | 'socks5'; url: string }
) & {
  /** The exit's region label (lowercase, e.g. `us`), chosen by X-Proxy-Region and the fetch API's `region`. */
  region?: string;
};

/** A ban rule of the smart proxy: a response matching it is a ban (retried on another exit). */
export interface ProxyBanRule {
  /** The target's domain (matches it and its subdomains); absent: every domain. */
  domain?: string;
  /** Response statuses that are bans (with `body`, the body must also match). */
  status?: number[];
  /** Markers searched in the first PROXY_BAN_BODY_BYTES of the body (any one matches). */
  body?: string[];
}

/** The smart forwarding proxy (:8010). */
export interface ProxyConfig {
  /** Where crawlhub's CA and the leaf certificates are kept (default DATA_DIR/proxy-ca). */
  caDir: string;
  exits: ProxyExitConfig[];
  /** Verify the certificates of HTTPS origins (and https:// upstream proxies). */
  upstreamTlsVerify: boolean;
  /** A PEM file of extra CAs trusted for origins, on top of the system's; null: none. */
  upstreamCaFile: string | null;
  /** X-Proxy-Timeout is clamped to [min, max]; the default is min. */
  timeoutMinMs: number;
  timeoutMaxMs: number;
  /** Responses larger than this answer 541 data_error. */
  maxResponseBytes: number;
  /** Requests in flight per key before 429 too_many_conns. */
  maxConnsPerKey: number;
  /** Requests in flight in this process before 503 serverbusy. */
  maxOutstanding: number;
  /** Domains (and their subdomains) refused with 523 domain_forbidden. */
  denyDomains: string[];
  /** Names answered without DNS (name -> IP literal), e.g. for `.test` names. */
  staticHosts: Record<string, string>;
  banRules: ProxyBanRule[];
  /** How much of a body the ban rules with body markers may inspect. */
  banBodyBytes: number;
  /** How long after a ban of a domain an exit is that domain's last choice. */
  banCooldownMs: number;
  /** A retry of a ban on an exit the request already tried (no other one left) waits this long first. */
  banRetryBackoffMs: number;
  /** How long an exit that failed on its own side (upstream proxy down) is left out. */
  exitCooldownMs: number;
  throttle: ProxyThrottleConfig;
}

/** Spacing of requests per (exit, domain): a request waits for its slot; each waiting request pushes the next slot further. */
export interface ProxyThrottleConfig {
  /** The time between two requests to one domain through one exit; 0: no throttling. */
  spacingMs: number;
  /** From this wait on, responses carry X-Proxy-Next-Request-In. */
  softLimitMs: number;
  /** A request that would wait this long answers 503 with Retry-After instead. */
  hardLimitMs: number;
}

export const PROXY_BAN_RULES_DEFAULT = '[{"status":[403,429,503]}]';

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
  /** How often a runner with jobs heartbeats, and how often the dash role checks the runners of running jobs. */
  heartbeatMs: number;
  /** A runner silent for this long (checker's clock) is lost: its running jobs finish as failed. */
  lostMs: number;
  /** After SIGTERM, how long a stopped job has before SIGKILL. */
  stopGraceMs: number;
  /** SHUB_STORAGE given to jobs; null: http://HOST:STORAGE_PORT/. */
  storageUrl: string | null;
  /** SHUB_APIURL given to jobs; null: http://HOST:DASH_PORT/api/. */
  apiUrl: string | null;
  /** The runner's own environment variables every job inherits (RUNNER_PASS_ENV), resolved at start. */
  passEnv: Record<string, string>;
}

/** Deploys (`shub deploy`) and the Python environments runners build for them (libs/deploys). */
export interface DeploysConfig {
  /** Where a runner keeps the environments of deployed versions (one folder per version). */
  envDir: string;
  /** pip's download and wheel cache, shared by every build of this machine. */
  pipCacheDir: string;
  /** The interpreter that creates the environments (`python3 -m venv`). */
  python: string;
  /** A build (pip, listing the spiders) taking longer fails. */
  buildTimeoutMs: number;
  /** How long addversion.json waits for a runner to build the deploy before it answers that none did. */
  waitMs: number;
  /** Environments unused for this long are removed. */
  envMaxIdleMs: number;
  /** Beyond this many bytes of environments, the least recently used are removed. */
  envMaxBytes: number;
  /** Blobs (eggs, requirements) of the embedded deployment; MongoDB GridFS on VIEW_STORE=mongodb. */
  blobDir: string;
}

/** Variables of the runner's environment that jobs inherit by default (a trailing * is a prefix). */
export const RUNNER_PASS_ENV_DEFAULT = 'PATH,HOME,USER,LOGNAME,SHELL,LANG,LANGUAGE,LC_*,TZ,TMPDIR';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

type Env = Record<string, string | undefined>;

/** A setting's row in the README's settings table and in `--help`: its meaning (Markdown) and its default as shown. */
interface SettingDoc {
  meaning: string;
  shown: string;
}
const doc = (meaning: string, shown: string): SettingDoc => ({ meaning, shown });

/**
 * Reads settings from an environment, collecting every problem (so one start names them
 * all), and records each setting's documentation where it is read: the reads of
 * readConfig are the one table of settings, behind the typed config, `--help` and the
 * README's table (CONFIG_DOCS).
 */
class SettingsReader {
  readonly problems: string[] = [];
  readonly documented = new Map<string, SettingDoc>();

  constructor(readonly env: Env) {}

  str(name: string, fallback: string, documentation?: SettingDoc): string {
    if (documentation) this.documented.set(name, documentation);
    const v = this.env[name];
    return v === undefined || v.trim() === '' ? fallback : v.trim();
  }

  int(name: string, fallback: number, min: number, max: number, documentation?: SettingDoc): number {
    const raw = this.str(name, String(fallback), documentation);
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      this.problems.push(`${name}=${raw} must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return n;
  }

  bool(name: string, fallback: boolean, documentation?: SettingDoc): boolean {
    const raw = this.str(name, String(fallback), documentation).toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name}=${raw} must be true or false`);
    return fallback;
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[], documentation?: SettingDoc): T {
    const raw = this.str(name, fallback, documentation) as T;
    if (!allowed.includes(raw)) {
      this.problems.push(`${name}=${raw} must be one of ${allowed.join(', ')}`);
      return fallback;
    }
    return raw;
  }

  /** An http(s) URL, with a trailing slash; null when unset. */
  url(name: string, documentation?: SettingDoc): string | null {
    const raw = this.str(name, '', documentation);
    if (raw === '') return null;
    if (!/^https?:\/\/[^\s]+$/.test(raw)) {
      this.problems.push(`${name}=${raw} must be an http(s) URL`);
      return null;
    }
    return raw.endsWith('/') ? raw : `${raw}/`;
  }
}

/** The configuration of the process, read from its environment; ConfigError names every problem at once. */
export function loadConfig(env: Env = process.env): CrawlhubConfig {
  const reader = new SettingsReader(env);
  const config = readConfig(reader);
  if (reader.problems.length) throw new ConfigError(reader.problems);
  return config;
}

/**
 * Every setting: name, default as shown, and meaning (Markdown), in the order readConfig
 * reads them: the README's settings table (written by `npm run docs:config`, config-docs.ts)
 * and `npm start -- --help` (as plain text).
 */
export const CONFIG_DOCS: [string, string, string][] = (() => {
  const reader = new SettingsReader({});
  readConfig(reader);
  return [...reader.documented].map(([name, d]) => [name, d.shown, d.meaning]);
})();

function readConfig(reader: SettingsReader): CrawlhubConfig {
  const { problems, env } = reader;
  const str = reader.str.bind(reader);
  const int = reader.int.bind(reader);
  const bool = reader.bool.bind(reader);
  const oneOf = reader.oneOf.bind(reader);
  const url = reader.url.bind(reader);

  const dataDir = resolve(str('DATA_DIR', './data', doc('where the embedded log and views live', '`./data`')));
  const roleNames = str('APP_ROLE', 'all', doc('which app(s) this process runs: storage, dash, proxy (:8010), stats (the proxy usage stats API, :8011), fetch, extract, projector, worker, runner, all (comma list allowed)', '`all`')).split(',').map((r) => r.trim()).filter(Boolean);
  const roles = new Set<AppRole>();
  for (const r of roleNames) {
    if (r === 'all') APP_ROLES.forEach((x) => roles.add(x));
    else if ((APP_ROLES as readonly string[]).includes(r)) roles.add(r as AppRole);
    else problems.push(`APP_ROLE: unknown role ${r} (known: all, ${APP_ROLES.join(', ')})`);
  }

  const logKind = oneOf('EVENT_LOG', 'sqlite', ['sqlite', 'kafka'] as const, doc('`sqlite` or `kafka`', '`sqlite`'));
  const partitions = int('EVENT_LOG_PARTITIONS', 8, 1, 1024, doc('partitions of every topic the platform creates', '`8`'));
  const namespace = str('EVENT_LOG_NAMESPACE', '', doc('prefix of every topic and consumer group, to share one Kafka cluster between deployments', '—'));
  if (namespace !== '' && !/^[a-z][a-z0-9-]{0,40}$/.test(namespace)) problems.push('EVENT_LOG_NAMESPACE must be lowercase letters, digits and -, starting with a letter');
  const brokers = str('KAFKA_BROKERS', '', doc('comma list, for `EVENT_LOG=kafka`', '—')).split(',').map((b) => b.trim()).filter(Boolean);
  let eventLog: CrawlhubConfig['eventLog'] = { kind: 'sqlite', partitions, namespace };
  if (logKind === 'kafka') {
    if (brokers.length === 0) problems.push('EVENT_LOG=kafka needs KAFKA_BROKERS (host:port, comma separated)');
    eventLog = { kind: 'kafka', partitions, namespace, brokers };
  }

  const viewKind = oneOf('VIEW_STORE', 'sqlite', ['sqlite', 'mongodb'] as const, doc('`sqlite` or `mongodb`', '`sqlite`'));
  const uri = str('MONGODB_URI', '', doc('for `VIEW_STORE=mongodb`', '—'));
  const database = str('MONGODB_DATABASE', 'crawlhub', doc('database name used in MongoDB', '`crawlhub`'));
  let viewStore: CrawlhubConfig['viewStore'] = { kind: 'sqlite' };
  if (viewKind === 'mongodb') {
    if (!/^mongodb(\+srv)?:\/\//.test(uri)) problems.push('VIEW_STORE=mongodb needs MONGODB_URI (mongodb://...)');
    viewStore = { kind: 'mongodb', uri, database };
  }

  const adminKey = str('CRAWLHUB_ADMIN_KEY', '', doc('the admin API key (sees every project)', 'created on first start, printed, kept in `DATA_DIR/admin-key`')) || null;
  if (adminKey !== null && !/^[A-Za-z0-9_-]{16,128}$/.test(adminKey)) {
    problems.push('CRAWLHUB_ADMIN_KEY must be 16 to 128 letters, digits, _ or -');
  }



  const config: CrawlhubConfig = {
    dataDir,
    roles: APP_ROLES.filter((r) => roles.has(r)),
    eventLog,
    viewStore,
    adminKey,
    jobTokenSecret: str('JOB_TOKEN_SECRET', '', doc('signs the job tokens given to running jobs (set it on every process of a distributed deployment)', 'created on first start, kept in `DATA_DIR/job-token-secret`')) || null,
    host: str('HOST', '127.0.0.1', doc('listen address of every port', '`127.0.0.1`')),
    ports: {
      dash: int('DASH_PORT', 8001, 0, 65535, doc('listen port of the dash API (and the web console)', '`8001`')),
      storage: int('STORAGE_PORT', 8002, 0, 65535, doc('listen port of the storage API', '`8002`')),
      fetch: int('FETCH_PORT', 8003, 0, 65535, doc('listen port of the fetch API', '`8003`')),
      extract: int('EXTRACT_PORT', 8004, 0, 65535, doc('listen port of the extraction API', '`8004`')),
      proxy: int('PROXY_PORT', 8010, 0, 65535, doc('listen port of the smart proxy', '`8010`')),
      stats: int('STATS_PORT', 8011, 0, 65535, doc('listen port of the proxy usage stats API', '`8011`')),
    },
    allowPrivateTargets: bool('ALLOW_PRIVATE_TARGETS', false, doc('let fetch, render, extraction and the proxy reach private and loopback addresses', '`false`')),
    allowTargetAddresses: addressRangesOf(str('ALLOW_TARGET_ADDRESSES', '', doc('comma list of addresses and CIDR ranges (`10.1.2.3`, `10.8.0.0/16`, `::1`) that fetch, render, extraction and the proxy may reach although they are private or loopback, while every other one stays refused ([SSRF rules](docs/proxy.md#ssrf-rules))', '—')), problems),
    readYourWritesTimeoutMs: int('READ_YOUR_WRITES_TIMEOUT_MS', 10_000, 10, 600_000, doc('how long a write waits for its views before answering 503', '`10000`')),
    streamKeepaliveMs: int('STREAM_KEEPALIVE_MS', 15_000, 100, 3_600_000, doc('how often the storage API\'s event streams (`…/events`) send a `: keepalive` comment, so proxies keep idle connections open', '`15000`')),
    schedulerIntervalMs: int('SCHEDULER_INTERVAL_MS', 10_000, 100, 3_600_000, doc('how often periodic jobs are checked (a run starts at most this late)', '`10000`')),
    maxRecordBytes: int('MAX_RECORD_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024, doc('largest item, log line, request or collection record (413 above)', '`1048576`')),
    eventChunkBytes: int('EVENT_CHUNK_BYTES', 1024 * 1024, 64 * 1024, 8 * 1024 * 1024, doc('request bodies are cut into log events of about this size', '`1048576`')),
    heapGrowingPercent: int('HEAP_GROWING_PERCENT', 0, 0, 300, doc('how much the JS heap may grow between full garbage collections, in percent of what the last one kept; 0 leaves V8 its own factor (up to 4x, with the allocation rate). Lower keeps the RSS flat for more collections; docker/compose.yaml sets 30 on the proxy ([why](docs/proxy.md#memory))', '`0`')),
    logLevel: oneOf('LOG_LEVEL', 'info', ['debug', 'info', 'warn', 'error'] as const, doc('debug, info, warn or error (debug also turns on kafkajs\' own debug lines on `EVENT_LOG=kafka`)', '`info`')),
    noColor: str('NO_COLOR', '', doc('set and not empty: log lines never carry colour codes (off a terminal they never do; [no-color.org](https://no-color.org))', '—')) !== '',
    logFormat: oneOf('LOG_FORMAT', 'text', ['text', 'json'] as const, doc('`text`, or `json`: one JSON object per log line, and one access line per HTTP request (at LOG_LEVEL info or debug) with its correlation id, the one the events of the request carry', '`text`')),
    ops: {
      port: str('OPS_PORT', '', doc('a port of its own for GET /healthz, /readyz and /metrics, without a key (for roles without an HTTP port: projector, runner, worker); every API port and the proxy port serve them too', '—')) === '' ? null : int('OPS_PORT', 0, 0, 65535),
      host: str('OPS_HOST', '127.0.0.1', doc('listen address of OPS_PORT (loopback by default: its metrics need no key)', '`127.0.0.1`')),
      metricsPublic: bool('METRICS_PUBLIC', false, doc('answer GET /metrics on the API and proxy ports without a key (otherwise the admin key, HTTP Basic; OPS_PORT never needs one)', '`false`')),
      readyMaxLag: int('READY_MAX_LAG', 1000, 0, Number.MAX_SAFE_INTEGER, doc('GET /readyz answers 503 while the views are more than this many events behind the log', '`1000`')),
      readyTimeoutMs: int('READY_TIMEOUT_MS', 2000, 10, 600_000, doc('GET /readyz answers 503 when the event log or the view store does not answer within this time', '`2000`')),
      shutdownDrainMs: int('SHUTDOWN_DRAIN_MS', 0, 0, 600_000, doc('after SIGTERM, how long a process keeps serving while GET /readyz answers 503 `shutting down`, so load balancers take it out of rotation before it stops accepting connections (set it above their probe interval); then in-flight requests are finished and it exits', '`0`')),
    },
    collections: {
      expirySeconds: int('COLLECTION_EXPIRY_SECONDS', 30 * 24 * 3600, 1, 100 * 365 * 24 * 3600, doc('records of cached collections (cs, vcs) expire this long after they were written (30 days)', '`2592000`')),
      versions: int('COLLECTION_VERSIONS', 3, 1, 100, doc('versions kept of each record of versioned collections (vs, vcs), the newest included', '`3`')),
      scanBatch: int('COLLECTION_SCAN_BATCH', 100_000, 1, 10_000_000, doc('records one collection count or delete-by-filter call examines before answering with `nextstart`', '`100000`')),
    },
    frontier: {
      maxPostBytes: int('FRONTIER_MAX_POST_BYTES', 4 * 1024 * 1024, 1024, 15 * 1024 * 1024, doc('largest body of one crawl frontier POST (requests, or batch ids to delete); 413 above', '`4194304`')),
      countBatches: int('FRONTIER_COUNT_BATCHES', 10_000, 1, 10_000_000, doc('batches one frontier `q/count` call scans before it answers with `nextstart`', '`10000`')),
    },
    proxyStats: {
      flushMs: int('PROXY_STATS_FLUSH_MS', 10_000, 10, 3_600_000, doc('how often a proxy process appends its aggregated usage statistics to the log (also at shutdown); the stats API lags by up to this much ([docs/proxy-stats.md](docs/proxy-stats.md))', '`10000`')),
      sampleMs: int('PROXY_STATS_SAMPLE_MS', 1000, 10, 1000, doc('how often the proxy samples each active user\'s concurrency (the peak of requests in flight since the last sample, kept per second: 10 to 1000, the same on every proxy process)', '`1000`')),
    },
    proxySessions: {
      idleMs: int('PROXY_SESSION_IDLE_MS', 1_800_000, 1, 86_400_000, doc('a proxy session unused for this long expires (30 minutes) ([docs/proxy.md](docs/proxy.md#sessions))', '`1800000`')),
      limit: int('PROXY_SESSION_LIMIT', 5000, 1, 1_000_000, doc('active proxy sessions per API key; one more answers 400 `user_session_limit`', '`5000`')),
      touchMs: int('PROXY_SESSION_TOUCH_MS', 15_000, 10, 3_600_000, doc('how often a proxy process appends the last uses of its sessions to the log (also at shutdown, and before a create of the same key)', '`15000`')),
    },
    fetch: {
      deadlineMs: int('FETCH_DEADLINE_MS', 60_000, 100, 3_600_000, doc('how long a fetch API request may take end to end (its deadline: a worker skips it after that); no answer by then: 503 ([docs/fetch-api.md](docs/fetch-api.md))', '`60000`')),
      maxResponseBytes: int('FETCH_MAX_RESPONSE_BYTES', 10 * 1024 * 1024, 1, 12 * 1024 * 1024, doc('larger website responses are a fetch failure (`data_error`): the spec\'s 10 MB fetch response limit', '`10485760`')),
    },
    extraction: {
      queryTimeoutMs: int('EXTRACT_QUERY_TIMEOUT_MS', 600_000, 100, 3_600_000, doc('an extraction query not done by then is answered `query timed out` (the other queries of its batch are still answered) ([docs/extraction-api.md](docs/extraction-api.md))', '`600000`')),
      userQueriesInFlight: int('EXTRACT_USER_QUERIES_IN_FLIGHT', 1000, 1, 1_000_000, doc('queries of one key in flight in one extraction API process beyond which a batch gets 429 user-rate-limit-exceeded', '`1000`')),
      queriesInFlight: int('EXTRACT_QUERIES_IN_FLIGHT', 5000, 1, 10_000_000, doc('queries of all keys in flight in one extraction API process beyond which a batch gets 429 rate-limit-exceeded', '`5000`')),
      threads: int('EXTRACT_THREADS', 1, 0, 64, doc('worker threads of an extraction worker that run the engine beside its main thread (0: on the main thread)', '`1`')),
      pageTimeoutMs: int('EXTRACT_PAGE_TIMEOUT_MS', 30_000, 100, 3_600_000, doc('a page whose extraction runs longer fails with `Extraction error: page too complex` and its thread is replaced (needs EXTRACT_THREADS ≥ 1)', '`30000`')),
    },
    worker: {
      kinds: workerKindsOf(str('WORKER_KINDS', WORKER_KINDS.join(','), doc('which requests a worker process takes: `plain` (fetches), `render` (browser renders), `extract` (extraction queries); any of them', '`plain,render,extract`')), problems),
      concurrency: int('WORKER_CONCURRENCY', 64, 1, 10_000, doc('fetch requests (and, separately, extraction queries) one worker process works on at once', '`64`')),
      proxyUrl: url('WORKER_PROXY_URL', doc('the proxy the workers fetch through (the platform\'s own)', '`http://127.0.0.1:PROXY_PORT`')),
    },
    runner: {
      units: int('RUNNER_UNITS', 4, 1, 100_000, doc('capacity of a runner in units (a job takes its `units`, 1 to 6)', '`4`')),
      id: str('RUNNER_ID', '', doc('names the runner in the jobs it claims; a restarted runner finishes its own orphaned jobs as failed (give each runner its own id)', 'created on first start, kept in `DATA_DIR/runner-id`')) || null,
      pollMs: int('RUNNER_POLL_MS', 1000, 10, 600_000, doc('how often a runner looks for pending jobs and for stop requests', '`1000`')),
      heartbeatMs: int('RUNNER_HEARTBEAT_MS', 10_000, 10, 600_000, doc('how often a runner that runs jobs appends a heartbeat per project of its jobs (an idle runner appends nothing), and how often the dash role checks the runners of running jobs ([docs/runner.md](docs/runner.md#lost-runners))', '`10000`')),
      lostMs: int('RUNNER_LOST_MS', 60_000, 30, 86_400_000, doc('a runner not heard from for this long is lost: its running jobs finish as `failed` (at least 3 × RUNNER_HEARTBEAT_MS; a job ends at most RUNNER_LOST_MS + 2 × RUNNER_HEARTBEAT_MS after its runner\'s last heartbeat)', '`60000`')),
      stopGraceMs: int('RUNNER_STOP_GRACE_MS', 10_000, 0, 3_600_000, doc('after SIGTERM, how long a stopped job has before SIGKILL', '`10000`')),
      storageUrl: url('RUNNER_STORAGE_URL', doc('`SHUB_STORAGE` given to jobs (the storage API as jobs reach it)', '`http://HOST:STORAGE_PORT/`')),
      apiUrl: url('RUNNER_API_URL', doc('`SHUB_APIURL` given to jobs (the dash API as jobs reach it)', '`http://HOST:DASH_PORT/api/`')),
      passEnv: passEnvOf(env, str('RUNNER_PASS_ENV', RUNNER_PASS_ENV_DEFAULT, doc('the runner\'s environment variables that jobs inherit (comma list, `X_*` for a prefix); nothing else of it reaches a job', '`PATH,HOME,USER,LOGNAME,SHELL,LANG,LANGUAGE,LC_*,TZ,TMPDIR`'))),
    },
    console: {
      storageUrl: url('CONSOLE_STORAGE_URL', doc('the storage API the web console (dash port, `/`) forwards `/storage/` to, so the browser talks to one origin', '`http://HOST:STORAGE_PORT/`')),
      statsUrl: url('CONSOLE_STATS_URL', doc('the proxy usage stats API the web console forwards `/stats/` to', '`http://HOST:STATS_PORT/`')),
      sessionHours: int('CONSOLE_SESSION_HOURS', 12, 1, 24 * 365, doc('a console session (its HttpOnly cookie) ends this many hours after sign-in', '`12`')),
    },
    deploys: {
      envDir: resolve(str('DEPLOY_ENV_DIR', join(dataDir, 'environments'), doc('where a runner builds and keeps the Python environment of each deployed version (one folder per version, shared by its jobs)', '`DATA_DIR/environments`'))),
      pipCacheDir: resolve(str('DEPLOY_PIP_CACHE_DIR', join(dataDir, 'pip-cache'), doc('pip\'s cache for the environments\' builds (`PIP_CACHE_DIR`): a package is downloaded once per machine', '`DATA_DIR/pip-cache`'))),
      python: str('DEPLOY_PYTHON', 'python3', doc('the interpreter that creates the environments (`-m venv`; 3.9 or later)', '`python3`')),
      buildTimeoutMs: int('DEPLOY_BUILD_TIMEOUT_MS', 900_000, 1000, 86_400_000, doc('a build of an environment (pip, then listing the spiders) taking longer fails', '`900000`')),
      waitMs: int('DEPLOY_WAIT_MS', 960_000, 1000, 86_400_000, doc('how long `scrapyd/addversion.json` waits for a runner to build the deploy before it answers that none did', '`960000`')),
      envMaxIdleMs: int('DEPLOY_ENV_MAX_IDLE_MS', 604_800_000, 60_000, 31_536_000_000, doc('environments no job used for this long are removed (7 days; checked at a runner\'s start, every hour and after each build)', '`604800000`')),
      envMaxBytes: int('DEPLOY_ENV_MAX_BYTES', 10 * 1024 ** 3, 1024 ** 2, Number.MAX_SAFE_INTEGER, doc('beyond this much disk used by environments, the least recently used ones are removed (10 GiB); the one a job uses never', '`10737418240`')),
      blobDir: resolve(str('DEPLOY_BLOB_DIR', join(dataDir, 'blobs'), doc('where deployed eggs and requirements are kept on the embedded deployment (on `VIEW_STORE=mongodb`: GridFS, bucket `blobs`)', '`DATA_DIR/blobs`'))),
    },
    render: {
      chromiumPath: str('CHROMIUM_PATH', '/usr/lib/chromium/chromium-headless-shell', doc('the Chromium binary the renderer drives (Debian\'s `chromium-headless-shell` package; never a downloaded browser)', '`/usr/lib/chromium/chromium-headless-shell`')),
      concurrency: int('RENDER_CONCURRENCY', 2, 1, 64, doc('renders at once in one process (each on its own kept browser and page)', '`2`')),
      queueLimit: int('RENDER_QUEUE_LIMIT', 100, 0, 1_000_000, doc('renders waiting for a page beyond which a render fails at once with `queue_full`', '`100`')),
      timeoutMs: int('RENDER_TIMEOUT_MS', 30_000, 100, 600_000, doc('default time of one render, counted from when it starts on a page (not while it waits in the queue)', '`30000`')),
      recyclePages: int('RENDER_RECYCLE_PAGES', 500, 1, 1_000_000, doc('a render browser is replaced after this many pages', '`500`')),
      recycleRssMb: int('RENDER_RECYCLE_RSS_MB', 1024, 64, 1_048_576, doc('a render browser is replaced once its process tree uses more memory than this (MB, read from /proc)', '`1024`')),
    },
    proxy: {
      caDir: resolve(str('PROXY_CA_DIR', join(dataDir, 'proxy-ca'), doc('where the proxy keeps its CA (created on first start, served at `GET /ca.crt` on the proxy port) and its leaf certificates ([docs/proxy.md](docs/proxy.md))', '`DATA_DIR/proxy-ca`'))),
      exits: proxyExitsOf(str('PROXY_EXITS', '', doc('outgoing exits of the proxy, comma list: local source addresses (`127.0.0.2`) and upstream proxies (`http://user:pass@host:port`, `https://…`, `socks5://…`), each optionally followed by ` region=<label>` (`127.0.0.2 region=us`)', 'the default route')), problems),
      upstreamTlsVerify: bool('PROXY_UPSTREAM_TLS_VERIFY', true, doc('verify the certificates of HTTPS sites (and of https:// upstream proxies) reached through the proxy', '`true`')),
      upstreamCaFile: str('PROXY_UPSTREAM_CA_FILE', '', doc('a PEM file of extra CA certificates the proxy trusts for HTTPS sites, on top of the system\'s', '—')) || null,
      timeoutMinMs: int('PROXY_TIMEOUT_MIN_MS', 30_000, 1, 3_600_000, doc('the lowest `X-Proxy-Timeout` (a lower one is raised to it), and the default timeout', '`30000`')),
      timeoutMaxMs: int('PROXY_TIMEOUT_MAX_MS', 180_000, 1, 3_600_000, doc('the highest `X-Proxy-Timeout` (a higher one is lowered to it)', '`180000`')),
      maxResponseBytes: int('PROXY_MAX_RESPONSE_BYTES', 500 * 1024 * 1024, 1, Number.MAX_SAFE_INTEGER, doc('larger responses answer 541 `data_error` (500 MB)', '`524288000`')),
      maxConnsPerKey: int('PROXY_MAX_CONNS_PER_KEY', 200, 1, 1_000_000, doc('requests in flight per API key before 429 `too_many_conns`', '`200`')),
      maxOutstanding: int('PROXY_MAX_OUTSTANDING', 10_000, 1, 10_000_000, doc('requests in flight in one proxy process before 503 `serverbusy`', '`10000`')),
      denyDomains: str('PROXY_DENY_DOMAINS', '', doc('comma list of domains (with their subdomains) the proxy refuses with 523 `domain_forbidden`', '—')).split(',').map((d) => d.trim().toLowerCase().replace(/^\*?\./, '')).filter(Boolean),
      staticHosts: staticHostsOf(str('PROXY_STATIC_HOSTS', '', doc('comma list `name=ip` the proxy answers without DNS (e.g. names under `.test`)', '—')), problems),
      banRules: banRulesOf(str('PROXY_BAN_RULES', PROXY_BAN_RULES_DEFAULT, doc('ban rules, JSON array (or `@/path/rules.json`) of `{"domain"?, "status"?: [..], "body"?: [markers]}`', '`[{"status":[403,429,503]}]`')), problems),
      banBodyBytes: int('PROXY_BAN_BODY_BYTES', 65_536, 1, 16 * 1024 * 1024, doc('how much of a response body the ban rules with body markers inspect', '`65536`')),
      banCooldownMs: int('PROXY_BAN_COOLDOWN_MS', 300_000, 0, 86_400_000, doc('how long after a ban an exit is the domain\'s last choice (other exits are preferred; a domain always keeps an exit)', '`300000`')),
      banRetryBackoffMs: int('PROXY_BAN_RETRY_BACKOFF_MS', 500, 0, 60_000, doc('a ban is retried on another exit at once; with no other exit left, on the same one after this pause (or its throttling slot, if later)', '`500`')),
      exitCooldownMs: int('PROXY_EXIT_COOLDOWN_MS', 30_000, 0, 86_400_000, doc('how long an exit that failed on its own side (upstream proxy down) is left out of rotation', '`30000`')),
      throttle: {
        spacingMs: int('PROXY_THROTTLE_SPACING_MS', 12_000, 0, 3_600_000, doc('time between two requests to one domain through one exit (a request waits for its slot); 0 turns throttling off', '`12000`')),
        softLimitMs: int('PROXY_THROTTLE_SOFT_LIMIT_MS', 120_000, 0, 86_400_000, doc('from this wait on, responses carry X-Proxy-Next-Request-In (seconds a next request to the domain would wait)', '`120000`')),
        hardLimitMs: int('PROXY_THROTTLE_HARD_LIMIT_MS', 1_000_000, 1, 86_400_000, doc('a request that would wait this long answers 503 `/limits/over-domain-limit` with Retry-After instead', '`1000000`')),
      },
    },
  };
  const { id: runnerId, heartbeatMs, lostMs } = config.runner;
  if (runnerId !== null && !/^[A-Za-z0-9_.:-]{1,128}$/.test(runnerId)) problems.push('RUNNER_ID must be 1 to 128 letters, digits, _ . : or -');
  // A healthy runner's heartbeats must never look like silence.
  if (lostMs < 3 * heartbeatMs) problems.push(`RUNNER_LOST_MS (${lostMs}) must be at least 3 × RUNNER_HEARTBEAT_MS (${heartbeatMs})`);
  if (config.worker.kinds.length === 0) problems.push(`WORKER_KINDS must name at least one of ${WORKER_KINDS.join(', ')}`);
  if (config.proxy.timeoutMinMs > config.proxy.timeoutMaxMs) problems.push('PROXY_TIMEOUT_MIN_MS must not exceed PROXY_TIMEOUT_MAX_MS');
  if (config.proxy.throttle.softLimitMs > config.proxy.throttle.hardLimitMs) problems.push('PROXY_THROTTLE_SOFT_LIMIT_MS must not exceed PROXY_THROTTLE_HARD_LIMIT_MS');
  return config;
}

function workerKindsOf(list: string, problems: string[]): WorkerKind[] {
  const kinds = list.split(',').map((k) => k.trim()).filter(Boolean);
  const unknown = kinds.filter((k) => !(WORKER_KINDS as readonly string[]).includes(k));
  if (unknown.length) problems.push(`WORKER_KINDS: unknown kind ${unknown.join(', ')} (known: ${WORKER_KINDS.join(', ')})`);
  return WORKER_KINDS.filter((k) => kinds.includes(k));
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

/** PROXY_EXITS: local source addresses and upstream proxy URLs; empty: one exit, the default route. */
function proxyExitsOf(list: string, problems: string[]): ProxyExitConfig[] {
  const items = list.split(',').map((x) => x.trim()).filter(Boolean);
  if (items.length === 0) return [{ kind: 'local', localAddress: null }];
  const exits: ProxyExitConfig[] = [];
  for (const entry of items) {
    // `<exit> region=<label>`: the region label rides after the exit, separated by a space.
    const [item, ...labels] = entry.split(/\s+/);
    const region = /^region=([a-z0-9-]{1,16})$/i.exec(labels.join(' '))?.[1].toLowerCase();
    if (labels.length > 0 && region === undefined) {
      problems.push(`PROXY_EXITS: ${entry}: after the exit only region=<label> may follow (letters, digits, -)`);
      continue;
    }
    const labelled = region === undefined ? {} : { region };
    const m = /^(https?|socks5h?):\/\//i.exec(item);
    if (m) {
      let url: URL | null = null;
      try {
        url = new URL(item);
      } catch {
        url = null;
      }
      if (!url || !url.hostname || !url.port && m[1].toLowerCase().startsWith('socks')) problems.push(`PROXY_EXITS: ${item} is not a proxy URL (scheme://[user:pass@]host:port)`);
      else exits.push({ kind: m[1].toLowerCase().startsWith('socks') ? 'socks5' : (m[1].toLowerCase() as 'http' | 'https'), url: item, ...labelled });
    } else if (isIP(item)) exits.push({ kind: 'local', localAddress: item, ...labelled });
    else problems.push(`PROXY_EXITS: ${item} is neither an IP address nor an http://, https:// or socks5:// URL`);
  }
  return exits;
}

function addressRangesOf(list: string, problems: string[]): string[] {
  const ranges = list.split(',').map((x) => x.trim()).filter(Boolean);
  for (const r of ranges) if (!isAddressOrRange(r)) problems.push(`ALLOW_TARGET_ADDRESSES: ${r} must be an IP address or a CIDR range`);
  return ranges.filter(isAddressOrRange);
}

function staticHostsOf(list: string, problems: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list.split(',').map((x) => x.trim()).filter(Boolean)) {
    const [name, ip] = item.split('=').map((x) => x.trim());
    if (!name || !ip || !isIP(ip)) problems.push(`PROXY_STATIC_HOSTS: ${item} must be name=ip`);
    else out[name.toLowerCase().replace(/\.$/, '')] = ip;
  }
  return out;
}

function banRulesOf(raw: string, problems: string[]): ProxyBanRule[] {
  let text = raw;
  if (raw.startsWith('@')) {
    try {
      text = readFileSync(raw.slice(1), 'utf8');
    } catch (e) {
      problems.push(`PROXY_BAN_RULES: cannot read ${raw.slice(1)}: ${(e as Error).message}`);
      return [];
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    problems.push('PROXY_BAN_RULES must be a JSON array of rules (or @file)');
    return [];
  }
  const ok = (r: unknown): r is ProxyBanRule => {
    if (typeof r !== 'object' || r === null || Array.isArray(r)) return false;
    const o = r as Record<string, unknown>;
    if (Object.keys(o).some((k) => !['domain', 'status', 'body'].includes(k))) return false;
    if (o.domain !== undefined && typeof o.domain !== 'string') return false;
    if (o.status !== undefined && !(Array.isArray(o.status) && o.status.every((s) => Number.isInteger(s) && s >= 100 && s <= 999))) return false;
    if (o.body !== undefined && !(Array.isArray(o.body) && o.body.every((b) => typeof b === 'string' && b !== ''))) return false;
    return o.status !== undefined || o.body !== undefined;
  };
  if (!Array.isArray(parsed) || !parsed.every(ok)) {
    problems.push('PROXY_BAN_RULES: every rule is {"domain"?: string, "status"?: [codes], "body"?: [markers]} with status or body');
    return [];
  }
  return parsed.map((r) => ({ ...r, ...(r.domain !== undefined ? { domain: r.domain.toLowerCase() } : {}) }));
}
