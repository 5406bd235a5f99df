import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock, EXTRACTION_COMPLETED, EXTRACTION_RESULTS_TOPIC, ExtractionCompleted, extractionEventProblem, FETCH_REQUESTED, FETCH_REQUESTS_TOPIC, fetchEventProblem, FetchRequested, RENDER_REQUESTS_TOPIC } from '@crawlhub/contracts';
import { EVENT_LOG, EventLog, LoggedEvent } from '@crawlhub/eventlog';
import { ApiError, formParams, RequestPrincipal } from '@crawlhub/http';
import { USAGE_GROUPS, UsageBuckets, UsageGroup } from './work-usage';

const DEFAULT_RANGE_MS = 7 * 86_400_000;
const MAX_USERS = 1000;
const PAGE = 1000;

function sendDash(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.status(200).header('content-type', 'application/json').header('cache-control', 'no-store').send(JSON.stringify(value));
}

/**
 * The fetch API's and the extraction API's usage over time (docs/dash-api.md "Usage"),
 * for the console's usage page beside the proxy's: fetches and renders per interval, from
 * the `fetch.requested` events (each names its key id); extraction queries and errors, from
 * the `extraction.completed` events (a query redone after a takeover counts once). They are
 * added up from the log when asked (as `crawlhub usage extraction` does): these topics hold
 * work, not secrets, and no view keeps them.
 */
@Controller('usage')
export class WorkUsageController {
  constructor(private readonly principals: RequestPrincipal, @Inject(EVENT_LOG) private readonly log: EventLog, @Inject(CLOCK) private readonly clock: Clock) {}

  @Get('fetch.json')
  async fetch(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { since, users, group } = await this.range(req);
    const buckets = new UsageBuckets(USAGE_GROUPS[group], ['fetches', 'renders'] as const);
    for (const topic of [FETCH_REQUESTS_TOPIC, RENDER_REQUESTS_TOPIC]) {
      for await (const e of this.events(topic, since)) {
        const d = e.event.data as FetchRequested;
        if (e.event.type !== FETCH_REQUESTED || fetchEventProblem(e.event) !== null || (users && !users.has(d.user))) continue;
        buckets.add(e.event.occurredAt, d.render ? { renders: 1 } : { fetches: 1 });
      }
    }
    return sendDash(reply, { status: 'ok', results: buckets.entries() });
  }

  @Get('extraction.json')
  async extraction(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { since, users, group } = await this.range(req);
    const buckets = new UsageBuckets(USAGE_GROUPS[group], ['queries', 'errors'] as const);
    const seen = new Set<string>();
    for await (const e of this.events(EXTRACTION_RESULTS_TOPIC, since)) {
      const d = e.event.data as ExtractionCompleted;
      if (e.event.type !== EXTRACTION_COMPLETED || extractionEventProblem(e.event) !== null || (users && !users.has(d.user)) || seen.has(d.id)) continue;
      seen.add(d.id);
      buckets.add(e.event.occurredAt, { queries: 1, errors: d.error === null ? 0 : 1 });
    }
    return sendDash(reply, { status: 'ok', results: buckets.entries() });
  }

  /** `start_date` (ISO, default a week ago), `groupby` (max, hour, day; default hour), `users` as the proxy stats API takes them. */
  private async range(req: FastifyRequest): Promise<{ since: number; users: Set<string> | null; group: UsageGroup }> {
    const principal = await this.principals.require(req);
    if (principal.job !== undefined) throw new ApiError(403, 'A job token has no usage');
    const params = await formParams(req);
    const start = params.get('start_date');
    const since = start === null ? this.clock.now() - DEFAULT_RANGE_MS : Date.parse(/Z|[+-]\d\d:?\d\d$/.test(start) || !start.includes('T') ? start : `${start}Z`);
    if (Number.isNaN(since)) throw new ApiError(400, `Invalid start_date ${JSON.stringify(start)}: an ISO 8601 date or date-time`);
    const group = (params.get('groupby') ?? 'hour') as UsageGroup;
    if (!Object.hasOwn(USAGE_GROUPS, group)) throw new ApiError(400, `Invalid groupby ${JSON.stringify(group)}: one of ${Object.keys(USAGE_GROUPS).join(', ')}`);
    const named = (params.get('users') ?? '').split(',').map((u) => u.trim()).filter(Boolean);
    if (named.length > MAX_USERS) throw new ApiError(400, `users names more than ${MAX_USERS} keys`);
    if (!principal.admin && named.some((u) => u !== principal.id)) throw new ApiError(403, 'A key sees only its own usage: users may name only its own key id');
    // The key's own usage; the admin key's: every key's, or the ones it names.
    const users = named.length > 0 ? new Set(named) : principal.admin ? null : new Set([principal.id]);
    return { since, users, group };
  }

  /** The topic's events since `since`, every partition, oldest first per partition. */
  private async *events(topic: string, since: number): AsyncGenerator<LoggedEvent> {
    await this.log.ensureTopics([topic]);
    for (let partition = 0; partition < this.log.partitionCount(topic); partition++) {
      for (let from = 0; ; ) {
        const page = await this.log.read(topic, partition, from, PAGE);
        if (page.length === 0) break;
        for (const e of page) if (e.event.occurredAt >= since) yield e;
        from = page[page.length - 1].offset + 1;
      }
    }
  }
}
