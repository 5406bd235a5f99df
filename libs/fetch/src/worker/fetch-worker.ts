import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { hostname } from 'node:os';
import { ProxyTokens } from '@crawlhub/access';
import { Clock, CLOCK, EventEnvelope, FETCH_COMPLETED, FETCH_REQUESTS_TOPIC, FETCH_RESULTS_TOPIC, FetchCompleted, fetchEventProblem, FetchRequested, RENDER_REQUESTS_TOPIC } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig, WorkerKind } from '@crawlhub/config';
import { consumeWorkQueue, Consumption, EVENT_LOG, EventLog, Limiter } from '@crawlhub/eventlog';
import { JOB_TOKEN_SECRET } from '@crawlhub/platform';
import { EventWriter } from '@crawlhub/views';
import type { RenderResult } from '@crawlhub/render';
import { PAGE_RENDERER, PageRenderer, renderFailureCode } from '../ports/page-renderer.port';
import { failure, FetchOutcome, ProxyFetcher, tooBigFailure } from './proxy-fetcher';

/** The consumer group of each kind of fetch worker: every member of a group takes a share of the partitions. */
export const FETCH_WORKER_GROUPS: Partial<Record<WorkerKind, { group: string; topic: string }>> = {
  plain: { group: 'fetch-workers', topic: FETCH_REQUESTS_TOPIC },
  render: { group: 'render-workers', topic: RENDER_REQUESTS_TOPIC },
};

/** Where the workers reach the proxy: bound by apps/worker (the platform's own proxy by default). */
export const WORKER_PROXY_URL = Symbol('WORKER_PROXY_URL');

/**
 * A member of the worker groups (WORKER_KINDS): takes fetch requests from the log, does
 * up to WORKER_CONCURRENCY of them at once through the proxy (plain) or the page renderer
 * (render), appends one `fetch.completed` per request as soon as it is done, and lets the
 * batch's offsets be committed only when all of its requests are done. A member that dies
 * mid-batch leaves it uncommitted: after the rebalance another member does it again.
 * Requests past their deadline are skipped (their API call has already answered 503).
 */
@Injectable()
export class FetchWorker implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly log = new Logger('FetchWorker');
  private readonly limiter: Limiter;
  private readonly fetcher: ProxyFetcher;
  private readonly tokens: ProxyTokens;
  private readonly consumptions: Consumption[] = [];
  readonly id = `${hostname()}:${process.pid}`;

  constructor(
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    @Inject(EVENT_LOG) private readonly eventLog: EventLog,
    private readonly writer: EventWriter,
    @Inject(JOB_TOKEN_SECRET) secret: string,
    @Inject(PAGE_RENDERER) private readonly renderer: PageRenderer,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WORKER_PROXY_URL) private readonly proxyUrl: string,
  ) {
    this.limiter = new Limiter(config.worker.concurrency);
    this.tokens = new ProxyTokens(secret, () => this.clock.now());
    this.fetcher = new ProxyFetcher({ proxyUrl, maxResponseBytes: config.fetch.maxResponseBytes, maxSockets: config.worker.concurrency, clock: this.clock });
  }

  async onApplicationBootstrap(): Promise<void> {
    const groups = this.config.worker.kinds.flatMap((k) => FETCH_WORKER_GROUPS[k] ?? []);
    await this.eventLog.ensureTopics([...groups.map((g) => g.topic), FETCH_RESULTS_TOPIC]);
    for (const { group, topic } of groups) {
      this.consumptions.push(
        await consumeWorkQueue(this.eventLog, { groupId: group, topic, limiter: this.limiter, work: (e) => this.work(e), failed: (e, error) => this.answerFailed(e, error) }),
      );
    }
  }

  /**
   * Stops taking requests, finishing those in flight, before the render pool closes (its
   * onApplicationShutdown): a render cut by the closing pool would be answered as failed
   * instead of being left to another worker.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.consumptions.splice(0).map((c) => c.stop()));
  }

  onApplicationShutdown(): void {
    this.fetcher.close();
  }

  private async work(event: EventEnvelope): Promise<void> {
    const problem = fetchEventProblem(event);
    if (problem !== null) {
      this.log.warn(`skipped malformed fetch request ${event.id}: ${problem}`);
      return;
    }
    const r = event.data as FetchRequested;
    if (this.clock.now() >= r.deadline) {
      this.log.debug(`skipped fetch request ${r.id}: its deadline passed`);
      return;
    }
    // The user's own credentials never reach the log: a token valid a little past the deadline.
    const token = await this.tokens.for(r.user, r.deadline + 5_000);
    const outcome = r.render ? await this.render(r, token) : await this.fetcher.fetch(r, token);
    await this.answer(event, { screenshot: null, ...outcome });
  }

  /** A request whose work kept failing (a poison message): its caller gets a failure naming the cause. */
  private async answerFailed(event: EventEnvelope, error: unknown): Promise<void> {
    if (fetchEventProblem(event) !== null) return;
    const url = (event.data as FetchRequested).url;
    await this.answer(event, { ...failure(url, 500, 'unexpected', `The worker failed on this request: ${error instanceof Error ? error.message : String(error)}`), screenshot: null });
  }

  private async answer(event: EventEnvelope, outcome: FetchOutcome & { screenshot: string | null }): Promise<void> {
    const r = event.data as FetchRequested;
    const completed: FetchCompleted = { id: r.id, worker: this.id, ...outcome, body: outcome.body.toString('base64') };
    await this.writer.append(FETCH_RESULTS_TOPIC, [
      this.writer.createEvent({ type: FETCH_COMPLETED, key: r.id, data: completed, actor: { kind: 'system', id: `worker:${this.id}` }, correlationId: event.correlationId, causationId: event.id }),
    ]);
  }

  private async render(r: FetchRequested, token: string): Promise<FetchOutcome & { screenshot: string | null }> {
    let page: RenderResult;
    try {
      page = await this.renderer.render({ url: r.url, screenshot: r.screenshot, headers: Object.fromEntries(r.headers), timeoutMs: Math.max(1, r.deadline - this.clock.now()), proxyKey: token });
    } catch (e) {
      return { ...failure(r.url, 503, renderFailureCode(e), e instanceof Error ? e.message : String(e)), screenshot: null };
    }
    // The page is the proxy's own answer (the browser shows it like a website's): its error code is the failure.
    const proxyError = page.headers['x-proxy-error'];
    if (proxyError) return { ...failure(r.url, page.status, proxyError, `The proxy answered ${page.status} ${proxyError}`, proxyError === 'banned'), screenshot: null };
    const html = Buffer.from(page.html, 'utf8');
    if (html.length > this.config.fetch.maxResponseBytes) return { ...tooBigFailure(r.url, this.config.fetch.maxResponseBytes), screenshot: null };
    return { url: page.finalUrl, originalStatus: page.status, headers: page.headers, proxyStatus: 'success', error: null, body: html, screenshot: page.screenshot ? page.screenshot.toString('base64') : null };
  }
}
