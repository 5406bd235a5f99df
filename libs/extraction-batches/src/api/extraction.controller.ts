import { Controller, Inject, Logger, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { hasCapability } from '@crawlhub/access';
import { CLOCK, Clock, currentCorrelationId, EXTRACTION_REQUESTED, EXTRACTION_REQUESTS_TOPIC, ExtractionCompleted, ExtractionRequested, IDS, Ids } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { actorOf, readBody, RequestPrincipal } from '@crawlhub/http';
import { EventWriter } from '@crawlhub/views';
import { AcceptedQuery, acceptQueries, MAX_BODY_BYTES } from '../domain/extraction-queries';
import { ExtractionProblem } from './extraction-problem';
import { ExtractionResults } from './extraction-results';
import { QueriesInFlight } from './queries-in-flight';

/** A result may arrive a little after the deadline the worker checked. */
const RESULT_GRACE_MS = 1_000;

/** One element of the response array (spec "Query result"). */
export interface QueryResult {
  query: { id: string; domain: string; userQuery: Record<string, unknown> };
  article?: Record<string, unknown>;
  product?: Record<string, unknown>;
  error?: string;
}

@Controller()
export class ExtractionController {
  private readonly log = new Logger('ExtractionController');
  /** Requests in flight per connection: a second one while the first runs is pipelining. */
  private readonly inFlightOn = new WeakMap<Socket, number>();

  constructor(
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    private readonly principals: RequestPrincipal,
    private readonly writer: EventWriter,
    private readonly results: ExtractionResults,
    private readonly queriesInFlight: QueriesInFlight,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDS) private readonly ids: Ids,
  ) {}

  /**
   * POST /v1/extract: a batch of 1–100 queries. Every query is appended to the log for the
   * extraction workers, in one append (all or none); the answer comes when every query is
   * done or has timed out (EXTRACT_QUERY_TIMEOUT_MS), one result per query.
   */
  @Post('v1/extract')
  async extract(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const socket = req.raw.socket;
    const before = this.inFlightOn.get(socket) ?? 0;
    this.inFlightOn.set(socket, before + 1);
    reply.raw.once('close', () => this.inFlightOn.set(socket, (this.inFlightOn.get(socket) ?? 1) - 1));
    if (before > 0) throw new ExtractionProblem(400, 'http-pipelining-not-supported', 'Attempt to second HTTP request over TCP connection');
    const principal = await this.principals.of(req);
    if (!principal) throw new ExtractionProblem(401, 'unauthorized', 'Authentication token not provided or invalid');
    if (!hasCapability(principal, 'extraction')) {
      throw new ExtractionProblem(403, 'account-disabled', 'Account has been disabled - contact support (this key is not enabled for extraction: crawlhub keys grant <key-id> extraction)');
    }
    const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') throw new ExtractionProblem(415, 'unrecognized-content-type', 'Unsupported request content type: should be application/json');
    const queries = acceptQueries(await readBody(req, MAX_BODY_BYTES), { clock: this.clock, ids: this.ids });
    const release = this.queriesInFlight.take(principal.id, queries.length);
    try {
      const results = await this.run(queries, principal.id, actorOf(principal));
      return reply.status(200).header('content-type', 'application/json').send(JSON.stringify(results));
    } finally {
      release();
    }
  }

  private async run(queries: AcceptedQuery[], user: string, actor: ReturnType<typeof actorOf>): Promise<QueryResult[]> {
    const timeoutMs = this.config.extraction.queryTimeoutMs;
    const deadline = this.clock.now() + timeoutMs;
    const batch = this.ids.uuid();
    const queued = queries.filter((q) => q.error === null);
    const waiting = new Map(queued.map((q) => [q.id, this.results.expect(q.id, timeoutMs + RESULT_GRACE_MS)]));
    const events = queued.map((q) => {
      const data: ExtractionRequested = { id: q.id, batch, user, url: q.url, pageType: q.pageType, articleBodyRaw: q.articleBodyRaw, deadline };
      // One batch is one request: its events carry the request's correlation id (X-Request-Id), else the batch's.
      return this.writer.createEvent({ type: EXTRACTION_REQUESTED, key: q.id, data, actor, correlationId: currentCorrelationId() ?? batch });
    });
    if (events.length > 0) {
      try {
        await this.writer.append(EXTRACTION_REQUESTS_TOPIC, events);
      } catch (e) {
        for (const w of waiting.values()) w.cancel();
        this.log.error(`a batch could not be queued: ${(e as Error).message}`);
        throw new ExtractionProblem(503, 'service-unavailable', 'The queries could not be queued (event log unavailable); retry', { retryAfter: 5 }, { 'retry-after': '5' });
      }
    }
    return Promise.all(queries.map(async (q) => resultOf(q, q.error ?? (await waiting.get(q.id)!.result))));
  }
}

function resultOf(q: AcceptedQuery, outcome: string | ExtractionCompleted | null): QueryResult {
  const query = { id: q.id, domain: q.domain, userQuery: q.userQuery };
  if (outcome === null) return { query, error: 'query timed out' };
  if (typeof outcome === 'string') return { query, error: outcome };
  if (outcome.error !== null) return { query, error: outcome.error };
  return { query, [q.pageType]: outcome.result! };
}
