/**
 * Topic `proxy-usage`: usage of the smart proxy, per user (the API key id the proxy
 * authenticated), in 5-minute buckets. Key: the user, so one user's usage is one ordered
 * stream owned by one partition.
 *
 * The proxy never writes one event per request: each proxy process aggregates in memory
 * (`UsageRecorder` in @crawlhub/proxy-stats) and flushes, every few seconds and on
 * shutdown, one `proxy-usage.recorded` event per user with the partial aggregates of the
 * buckets it saw since its last flush. Several processes report the same bucket; the
 * projection adds the partials up (counts and bytes add, histograms add bin by bin).
 */
export const PROXY_USAGE_TOPIC = 'proxy-usage';

/**
 * A histogram of non-negative integer samples on the fixed log-linear bins of
 * `binOf` (@crawlhub/proxy-stats): `[bin, count]` pairs, bins ascending, counts > 0.
 */
export type UsageHistogram = [number, number][];

/**
 * Concurrency of one user over a bucket: `[second, peak]` pairs, `second` the index of the
 * second within the bucket (0 to 299), `peak` the most requests of the user in flight at
 * once during that second in one proxy process; seconds ascending, idle seconds absent.
 * Partials add up second by second, so the stored value is the user's concurrency over
 * every proxy process.
 */
export type UsageSeconds = [number, number][];

/** Partial usage of one user in one 5-minute bucket, as one proxy process saw it. */
export interface UsageBucketPartial {
  /** Start of the bucket, ms since the epoch (a multiple of 300000). */
  start: number;
  /** Responses delivered (the target's own status, whatever it was). */
  clean: number;
  /** Requests answered with a proxy error other than a ban. */
  failed: number;
  /** Requests answered 503 `banned` (every exit tried was banned). */
  ban: number;
  /** Bytes transferred, as the proxy counts them (request body + response body). */
  traffic: number;
  /** Request times, ms (from the request's arrival to the end of its response). */
  times: UsageHistogram;
  /** The user's concurrency, second by second. */
  concurrency: UsageSeconds;
}

export const PROXY_USAGE_RECORDED = 'proxy-usage.recorded';
export interface ProxyUsageRecorded {
  user: string;
  /** Buckets ascending by start, each at most once. */
  buckets: UsageBucketPartial[];
}
