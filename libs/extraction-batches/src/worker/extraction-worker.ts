import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { hostname } from 'node:os';
import { ProxyTokens } from '@crawlhub/access';
import { Clock, CLOCK, EventEnvelope, EXTRACTION_COMPLETED, EXTRACTION_REQUESTED, EXTRACTION_REQUESTS_TOPIC, EXTRACTION_RESULTS_TOPIC, ExtractionCompleted, extractionEventProblem, ExtractionRequested, FetchRequested } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { consumeWorkQueue, Consumption, EVENT_LOG, EventLog, Limiter } from '@crawlhub/eventlog';
import { ProxyFetcher, WORKER_PROXY_URL } from '@crawlhub/fetch';
import { JOB_TOKEN_SECRET } from '@crawlhub/platform';
import { EventWriter } from '@crawlhub/views';
import { extractionDuration, extractionWorkerInFlight } from '@crawlhub/ops';
import { downloadError, EXTRACTION_FAILED, EXTRACTION_TOO_LONG, isBillable } from '../domain/query-errors';
import { PageExtractionTimeout, PageExtractor } from './page-extractor';

export const EXTRACTION_WORKERS_GROUP = 'extraction-workers';

/** What the worker asks websites for: a page, as a browser would. */
const PAGE_HEADERS: [string, string][] = [['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8']];

/**
 * A member of the extraction workers' group (WORKER_KINDS `extract`): takes queries from
 * the log, downloads each page as the fetch fleet does (ProxyFetcher, through crawlhub's
 * proxy with a proxy token for the user, so bans, retries, throttling and usage statistics
 * apply), extracts it with the engine (libs/extraction) and appends one
 * `extraction.completed` per query. Offsets are committed once a batch's queries are done,
 * so the queries of a worker that dies are done by another (at least once).
 */
@Injectable()
export class ExtractionWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('ExtractionWorker');
  private readonly limiter: Limiter;
  private readonly fetcher: ProxyFetcher;
  private readonly tokens: ProxyTokens;
  private readonly extractor: PageExtractor;
  private consumption: Consumption | null = null;
  readonly id = `${hostname()}:${process.pid}`;

  constructor(
    @Inject(CONFIG) config: CrawlhubConfig,
    @Inject(EVENT_LOG) private readonly eventLog: EventLog,
    private readonly writer: EventWriter,
    @Inject(JOB_TOKEN_SECRET) secret: string,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WORKER_PROXY_URL) proxyUrl: string,
  ) {
    this.limiter = new Limiter(config.worker.concurrency);
    this.tokens = new ProxyTokens(secret, () => this.clock.now());
    this.extractor = new PageExtractor({ threads: config.extraction.threads, pageTimeoutMs: config.extraction.pageTimeoutMs });
    this.fetcher = new ProxyFetcher({ proxyUrl, maxResponseBytes: config.fetch.maxResponseBytes, maxSockets: config.worker.concurrency, clock: this.clock });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.eventLog.ensureTopics([EXTRACTION_REQUESTS_TOPIC, EXTRACTION_RESULTS_TOPIC]);
    this.consumption = await consumeWorkQueue(this.eventLog, {
      groupId: EXTRACTION_WORKERS_GROUP,
      topic: EXTRACTION_REQUESTS_TOPIC,
      limiter: this.limiter,
      work: (e) => this.work(e),
      failed: (e) => this.answerFailed(e),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumption?.stop();
    this.fetcher.close();
    await this.extractor.close();
  }

  private async work(event: EventEnvelope): Promise<void> {
    const problem = extractionEventProblem(event);
    if (problem !== null || event.type !== EXTRACTION_REQUESTED) {
      this.log.warn(`skipped malformed extraction request ${event.id}: ${problem ?? `a ${event.type} event`}`);
      return;
    }
    const q = event.data as ExtractionRequested;
    if (this.clock.now() >= q.deadline) {
      this.log.debug(`skipped query ${q.id}: its deadline passed (its batch has answered "query timed out")`);
      return;
    }
    extractionWorkerInFlight.inc();
    try {
      const done = await this.extract(q);
      const outcome = done.error === null ? 'ok' : 'error';
      extractionDuration.observe({ phase: 'download', outcome }, done.downloadMs / 1000);
      extractionDuration.observe({ phase: 'extract', outcome }, done.extractMs / 1000);
      await this.answer(event, { ...done, billable: isBillable(done.error) });
    } finally {
      extractionWorkerInFlight.dec();
    }
  }

  /** A query whose work kept failing (a poison message): answered with the engine's internal error, not billed (the fault is ours). */
  private async answerFailed(event: EventEnvelope): Promise<void> {
    if (extractionEventProblem(event) !== null || event.type !== EXTRACTION_REQUESTED) return;
    await this.answer(event, { result: null, error: EXTRACTION_FAILED, downloadMs: 0, extractMs: 0, billable: false });
  }

  private async answer(event: EventEnvelope, done: Pick<ExtractionCompleted, 'result' | 'error' | 'downloadMs' | 'extractMs' | 'billable'>): Promise<void> {
    const q = event.data as ExtractionRequested;
    const completed: ExtractionCompleted = { id: q.id, batch: q.batch, user: q.user, worker: this.id, pageType: q.pageType, ...done };
    await this.writer.append(EXTRACTION_RESULTS_TOPIC, [
      this.writer.createEvent({ type: EXTRACTION_COMPLETED, key: q.id, data: completed, actor: { kind: 'system', id: `worker:${this.id}` }, correlationId: event.correlationId, causationId: event.id }),
    ]);
  }

  private async extract(q: ExtractionRequested): Promise<Pick<ExtractionCompleted, 'result' | 'error' | 'downloadMs' | 'extractMs'>> {
    const started = performance.now();
    const request: FetchRequested = { id: q.id, user: q.user, url: q.url, method: 'GET', headers: PAGE_HEADERS, body: null, region: null, device: null, jobId: null, render: false, screenshot: false, deadline: q.deadline };
    const fetched = await this.fetcher.fetch(request, await this.tokens.for(q.user, q.deadline + 5_000));
    const downloadMs = performance.now() - started;
    const failed = (error: string) => ({ result: null, error, downloadMs, extractMs: 0 });
    // A download cut by the query's own deadline is the query's timeout, not the website's.
    const error = fetched.error?.code === 'timeout' && this.clock.now() >= q.deadline ? 'query timed out' : downloadError(fetched, new URL(q.url).hostname);
    if (error !== null) return failed(error);
    const contentType = Object.entries(fetched.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
    try {
      // The page's own URL after the proxy (the same: redirects are not followed).
      const { result, ms } = await this.extractor.extract({ body: fetched.body, contentType, url: fetched.url, pageType: q.pageType, articleBodyRaw: q.articleBodyRaw });
      if (result === null) return failed('Downloader error: No visible elements');
      return { result, error: null, downloadMs, extractMs: Math.round(ms) };
    } catch (e) {
      if (e instanceof PageExtractionTimeout) {
        this.log.warn(`extraction of ${q.url} (query ${q.id}) stopped after ${e.timeoutMs} ms`);
        return failed(EXTRACTION_TOO_LONG);
      }
      this.log.error(`extraction of ${q.url} (query ${q.id}) failed: ${(e as Error).message}`);
      return failed(EXTRACTION_FAILED);
    }
  }
}
