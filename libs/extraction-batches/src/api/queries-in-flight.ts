import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { RETRY_AFTER_SECONDS } from '@crawlhub/http';
import { extractionApiInFlight } from '@crawlhub/ops';
import { ExtractionProblem } from './extraction-problem';

/**
 * The rate limits of one API process, counted in queries in flight (each query counts
 * apart, as usage does): a batch that would pass a key's limit gets 429
 * user-rate-limit-exceeded, one that would pass the process's limit 429 rate-limit-exceeded;
 * both carry the delay as `retryAfter` (seconds) and Retry-After.
 */
@Injectable()
export class QueriesInFlight implements OnModuleDestroy {
  private total = 0;
  private readonly byUser = new Map<string, number>();

  /** Takes this process's queries out of /metrics (at shutdown). */
  private readonly unlistMetrics = extractionApiInFlight.add(() => [{ labels: {}, value: this.total }]);

  constructor(@Inject(CONFIG) private readonly config: CrawlhubConfig) {}

  onModuleDestroy(): void {
    this.unlistMetrics();
  }

  /** Takes `count` places for `user`, or throws the 429; call the returned function once they are done. */
  take(user: string, count: number): () => void {
    const limits = this.config.extraction;
    const mine = this.byUser.get(user) ?? 0;
    const refuse = (slug: string, title: string) =>
      new ExtractionProblem(429, slug, title, RETRY_AFTER_SECONDS);
    if (mine + count > limits.userQueriesInFlight) throw refuse('user-rate-limit-exceeded', `User rate limit exceeded: ${mine} queries of this key are in flight (at most ${limits.userQueriesInFlight})`);
    if (this.total + count > limits.queriesInFlight) throw refuse('rate-limit-exceeded', `System-wide rate limit exceeded: ${this.total} queries are in flight (at most ${limits.queriesInFlight})`);
    this.total += count;
    this.byUser.set(user, mine + count);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= count;
      const left = (this.byUser.get(user) ?? count) - count;
      if (left > 0) this.byUser.set(user, left);
      else this.byUser.delete(user);
    };
  }
}
