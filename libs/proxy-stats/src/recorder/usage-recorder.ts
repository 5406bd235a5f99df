import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Clock, CLOCK, createEvent, Ids, IDS, PROXY_USAGE_RECORDED, PROXY_USAGE_TOPIC, ProxyUsageRecorded } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { LogPosition } from '@crawlhub/eventlog';
import { EventWriter } from '@crawlhub/views';
import { ConcurrencyTracker, UsageAggregator, UsageOutcome } from '../domain/usage-aggregator';

/** What the proxy reports when a proxied request ends. */
export interface FinishedRequest {
  /** The API key id the request was authenticated with. */
  user: string;
  /** clean: a response was delivered; ban: 503 banned; failed: any other proxy error. */
  outcome: UsageOutcome;
  /** Bytes transferred for the request (the proxy counts request body + response body). */
  bytes: number;
  /** From the request's arrival to the end of its response, ms. */
  timeMs: number;
}

/**
 * The proxy's usage accounting (bound to the proxy's PROXY_USAGE port). Per request it
 * only touches memory: `started` and `finished` update the in-flight counts and the
 * aggregates of (user, 5-minute bucket). Every `PROXY_STATS_SAMPLE_MS` each active user's
 * peak concurrency is sampled; every `PROXY_STATS_FLUSH_MS`, and when the app closes,
 * the aggregates go to the log as one `proxy-usage.recorded` event per user. A failed
 * flush keeps its aggregates for the next one.
 */
@Injectable()
export class UsageRecorder implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('UsageRecorder');
  private readonly aggregates = new UsageAggregator();
  private readonly inFlight = new ConcurrencyTracker();
  private stopTimers: (() => void)[] = [];
  private flushing: Promise<LogPosition[]> = Promise.resolve([]);
  private failing = false;

  constructor(
    private readonly writer: EventWriter,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDS) private readonly ids: Ids,
  ) {}

  started(user: string): void {
    this.account('a request started', () => this.inFlight.started(user));
  }

  finished(o: FinishedRequest): void {
    this.account('a request finished', () => {
      this.inFlight.finished(o.user);
      this.aggregates.request(o.user, o.outcome, o.bytes, o.timeMs, this.clock.now());
    });
  }

  /** Takes one concurrency sample of every active user (the sampling timer calls it). */
  sample(): void {
    this.account('a concurrency sample', () => {
      const now = this.clock.now();
      for (const [user, peak] of this.inFlight.tick()) this.aggregates.concurrency(user, peak, now);
    });
  }

  /**
   * The proxy calls these from its request handlers and event listeners, the timers from
   * theirs: a throw there would fail the request or end the process. Accounting that
   * fails is logged once (until it works again) and the proxy goes on unaccounted.
   */
  private account(what: string, update: () => void): void {
    try {
      update();
      this.failing = false;
    } catch (e) {
      if (!this.failing) this.logger.error(`usage accounting failed (${what}); requests go on unaccounted until it works again: ${e instanceof Error ? e.stack : e}`);
      this.failing = true;
    }
  }

  /**
   * Appends what was aggregated since the last flush; resolves with the events' positions
   * once they are durable (empty when there was nothing). Flushes run one at a time.
   */
  flush(): Promise<LogPosition[]> {
    const run = this.flushing.catch(() => []).then(() => this.flushNow());
    this.flushing = run;
    return run;
  }

  private async flushNow(): Promise<LogPosition[]> {
    if (this.aggregates.empty) return [];
    const drained = this.aggregates.drain();
    const events = [...drained].map(([user, buckets]) =>
      createEvent<ProxyUsageRecorded>({ type: PROXY_USAGE_RECORDED, key: user, data: { user, buckets }, actor: { kind: 'system', id: 'proxy' } }, { clock: this.clock, ids: this.ids }),
    );
    try {
      return await this.writer.append(PROXY_USAGE_TOPIC, events);
    } catch (e) {
      this.aggregates.restore(drained);
      throw e;
    }
  }

  onModuleInit(): void {
    const { sampleMs, flushMs } = this.config.proxyStats;
    this.stopTimers = [
      this.clock.every(sampleMs, () => this.sample()),
      this.clock.every(flushMs, () => {
        this.flush().catch((e) => this.logger.warn(`usage flush failed, kept for the next one: ${e instanceof Error ? e.message : e}`));
      }),
    ];
  }

  async onModuleDestroy(): Promise<void> {
    for (const stop of this.stopTimers) stop();
    this.stopTimers = [];
    this.sample();
    await this.flush().catch((e) => this.logger.error(`usage lost at shutdown: ${e instanceof Error ? e.message : e}`));
  }
}
