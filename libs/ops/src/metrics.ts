import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (prom-client), one registry per process: every role a
 * process runs adds to the same series, and GET /metrics on any of its ports shows them all.
 * Names follow Prometheus' conventions (`_total` counters, `_seconds` histograms, base units).
 * docs/operations.md lists them with what to watch.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'crawlhub_' });

/** Latency buckets (seconds) from a millisecond to a minute: API calls, appends, extraction. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export const httpRequests = new Counter({
  name: 'crawlhub_http_requests_total',
  help: 'HTTP requests answered, per API, method, route (its template) and status',
  labelNames: ['api', 'method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'crawlhub_http_request_duration_seconds',
  help: 'Time from a request to its answer, per API, method, route and status',
  labelNames: ['api', 'method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const eventLogAppendDuration = new Histogram({
  name: 'crawlhub_eventlog_append_duration_seconds',
  help: 'Time an append to the event log takes until its events are durable, per topic and outcome',
  labelNames: ['topic', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

/**
 * A counter bumped on a hot path (the proxy's, once or more per request): it counts in a plain
 * Map by its label values and hands the totals to prom-client when /metrics is scraped
 * (prom-client's own `inc` checks and hashes the labels object every time: 2% of the proxy's
 * CPU per request in the issue 20 profile).
 */
export class HotCounter<L extends string> {
  private readonly counts = new Map<string, { labels: Record<L, string>; value: number }>();

  constructor(name: string, help: string, private readonly labelNames: readonly L[]) {
    const counts = this.counts;
    new Counter<L>({
      name,
      help,
      labelNames,
      registers: [metricsRegistry],
      collect() {
        this.reset();
        for (const { labels, value } of counts.values()) this.inc(labels, value);
      },
    });
  }

  inc(labels: Record<L, string>): void {
    let key = '';
    for (const name of this.labelNames) key += `${labels[name]}\n`;
    const entry = this.counts.get(key);
    if (entry) entry.value++;
    else this.counts.set(key, { labels: { ...labels }, value: 1 });
  }
}

export const proxyRequests = new HotCounter('crawlhub_proxy_requests_total', 'Requests through the proxy, per outcome (clean, ban, failed) and exit (none: refused before one was picked)', ['outcome', 'exit'] as const);

export const proxyErrors = new HotCounter('crawlhub_proxy_errors_total', 'Proxy requests answered with an error, per X-Proxy-Error code and exit', ['code', 'exit'] as const);

export const proxyBans = new HotCounter('crawlhub_proxy_bans_total', 'Responses the ban rules took for a ban, per exit', ['exit'] as const);

export const proxyRetries = new HotCounter('crawlhub_proxy_retries_total', 'Requests the proxy tried again, per reason (ban, exit_failure)', ['reason'] as const);

export const extractionDuration = new Histogram({
  name: 'crawlhub_extraction_duration_seconds',
  help: 'Extraction queries done by this worker: time per phase (download, extract), per outcome (ok, error)',
  labelNames: ['phase', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const extractionWorkerInFlight = new Gauge({
  name: 'crawlhub_extraction_worker_queries_in_flight',
  help: 'Extraction queries this worker is working on',
  registers: [metricsRegistry],
});

/** One sample of a gauge read when scraped: its labels and value. */
export type Sample<L extends string> = { labels: Partial<Record<L, string | number>>; value: number };
export type SampleSource<L extends string> = () => Sample<L>[] | Promise<Sample<L>[]>;

/**
 * A gauge whose value is read from the running components when /metrics is scraped (lags,
 * pool sizes, job counts), never kept up to date by hand. Several components of one process
 * (two runners in a test, every role in `npm start`) each add a source; `add` returns its
 * removal, for the component's shutdown. A source that fails leaves its samples out.
 */
export class SampledGauge<L extends string> {
  private readonly sources = new Set<SampleSource<L>>();

  constructor(name: string, help: string, labelNames: readonly L[]) {
    const sources = this.sources;
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [metricsRegistry],
      async collect() {
        this.reset();
        const read = await Promise.all([...sources].map((s) => Promise.resolve().then(s).catch((): Sample<L>[] => [])));
        for (const { labels, value } of read.flat()) this.inc(labels as never, value);
      },
    });
  }

  add(source: SampleSource<L>): () => void {
    this.sources.add(source);
    return () => void this.sources.delete(source);
  }
}

export const consumerLag = new SampledGauge(
  'crawlhub_consumer_lag_events',
  'Events of a partition that a consumer group of this process has not handled yet (from the partitions it has handled since start)',
  ['group', 'topic', 'partition'] as const,
);

export const projectorLag = new SampledGauge('crawlhub_projector_lag_events', 'Events in the log that the views have not applied yet, per topic and partition', ['topic', 'partition'] as const);

export const jobsByState = new SampledGauge('crawlhub_jobs', 'Jobs per state (all projects), read from the views', ['state'] as const);

export const runnerUnits = new SampledGauge('crawlhub_runner_units', 'Units (job slots) of the runners of this process, busy and free, per runner', ['runner', 'state'] as const);

export const renderPool = new SampledGauge(
  'crawlhub_render_pool',
  'The render pool of this process: browsers, renders running and waiting (queue), browser memory in bytes',
  ['measure'] as const,
);

export const extractionApiInFlight = new SampledGauge('crawlhub_extraction_api_queries_in_flight', 'Extraction queries this API process waits for (its queue towards the workers)', [] as const);

export const fetchApiInFlight = new SampledGauge('crawlhub_fetch_api_requests_in_flight', 'Fetch requests this API process waits for', [] as const);
