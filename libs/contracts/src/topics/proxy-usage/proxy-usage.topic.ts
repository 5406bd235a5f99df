import { z } from 'zod';
import { defineTopic, MILLIS, USER_ID } from '../../topic-contract';

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
const USAGE_HISTOGRAM = z.array(z.tuple([z.number().int().nonnegative(), z.number().int().positive()]));
export type UsageHistogram = z.infer<typeof USAGE_HISTOGRAM>;

/**
 * Concurrency of one user over a bucket: `[second, peak]` pairs, `second` the index of the
 * second within the bucket (0 to 299), `peak` the most requests of the user in flight at
 * once during that second in one proxy process; seconds ascending, idle seconds absent.
 * Partials add up second by second, so the stored value is the user's concurrency over
 * every proxy process.
 */
const USAGE_SECONDS = z.array(z.tuple([z.number().int().min(0).max(299), z.number().int().nonnegative()]));
export type UsageSeconds = z.infer<typeof USAGE_SECONDS>;

/** Partial usage of one user in one 5-minute bucket, as one proxy process saw it. */
const USAGE_BUCKET_PARTIAL = z.object({
  /** Start of the bucket, ms since the epoch (a multiple of 300000). */
  start: MILLIS.refine((ms) => ms % 300_000 === 0, 'a multiple of 300000'),
  /** Responses delivered (the target's own status, whatever it was). */
  clean: MILLIS,
  /** Requests answered with a proxy error other than a ban. */
  failed: MILLIS,
  /** Requests answered 503 `banned` (every exit tried was banned). */
  ban: MILLIS,
  /** Bytes transferred, as the proxy counts them (request body + response body). */
  traffic: MILLIS,
  /** Request times, ms (from the request's arrival to the end of its response). */
  times: USAGE_HISTOGRAM,
  /** The user's concurrency, second by second. */
  concurrency: USAGE_SECONDS,
});
export type UsageBucketPartial = z.infer<typeof USAGE_BUCKET_PARTIAL>;

export const PROXY_USAGE_RECORDED = 'proxy-usage.recorded';
const PROXY_USAGE_RECORDED_DATA = z.object({
  user: USER_ID,
  /** Buckets ascending by start, each at most once. */
  buckets: z.array(USAGE_BUCKET_PARTIAL),
});
export type ProxyUsageRecorded = z.infer<typeof PROXY_USAGE_RECORDED_DATA>;

export const PROXY_USAGE_CONTRACT = defineTopic([PROXY_USAGE_TOPIC], { [PROXY_USAGE_RECORDED]: PROXY_USAGE_RECORDED_DATA }, (_type, d) => d.user);
