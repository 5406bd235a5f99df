import { formatJobKey, JobKey } from '@crawlhub/contracts';
import { Controller, Get, Inject, Logger, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { ApiError, MAX_POSITION, parseId, parsePosition, queryOf, RequestPrincipal, single } from '@crawlhub/http';
import { RecordKind } from '../../domain/record-kinds';
import { withMeta } from '../../domain/record-meta';
import { idOf } from '../../http/storage-request';
import { FeedMembership, JobFeeds, READ_PAGE } from './job-feeds';

/** The job states after which nothing more is written: the stream ends once it sent everything. */
const FINAL_STATES = ['finished', 'deleted'];
/** The event name of each kind's records. */
const EVENT_OF: Record<string, string> = { items: 'item', logs: 'log', requests: 'request' };

/**
 * Server-Sent Events of one job's records (docs/storage-api.md, Live streams): every
 * record from a position on, then the new ones as they are stored, with the job's state
 * changes, until the job is finished or deleted.
 */
@Controller()
export class StreamJobRecordsController {
  private readonly logger = new Logger('StreamJobRecords');

  constructor(
    private readonly principals: RequestPrincipal,
    private readonly feeds: JobFeeds,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
  ) {}

  @Get('items/:project/:spider/:job/events')
  items(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.open('items', p, req, reply);
  }

  @Get('logs/:project/:spider/:job/events')
  logs(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.open('logs', p, req, reply);
  }

  @Get('requests/:project/:spider/:job/events')
  requests(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.open('requests', p, req, reply);
  }

  private async open(kind: RecordKind, p: Record<string, string>, req: FastifyRequest, reply: FastifyReply) {
    const job: JobKey = { project: idOf(p.project, 'project'), spider: idOf(p.spider, 'spider'), job: idOf(p.job, 'job') };
    await this.principals.authorize(req, job.project, formatJobKey(job));
    const next = firstPosition(req, job);
    const feed = await this.feeds.join(job);
    const sight = feed.current;
    if (sight.metadata === null && !sight.hasRecords) {
      feed.leave();
      throw ApiError.notFound();
    }
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=UTF-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // nginx and its kin buffer responses unless told not to.
      'x-accel-buffering': 'no',
    });
    const stream = new EventStream(raw, this.config.streamKeepaliveMs);
    this.send(kind, job, next, feed, stream)
      .catch((err) => this.logger.warn(`stream of ${kind} of ${formatJobKey(job)} failed: ${err}`))
      .finally(() => {
        feed.leave();
        stream.close();
      });
  }

  private async send(kind: RecordKind, job: JobKey, next: number, feed: FeedMembership, out: EventStream): Promise<void> {
    const asJson = withMeta(kind, job.project, ['_key'], false);
    let sent: Record<string, unknown> | null = null;
    while (!out.gone && !feed.closed) {
      // The metadata is read before the records: a job seen finished has all its records stored.
      const sight = feed.current;
      const changed = changedFields(sent, sight.metadata);
      if (changed) out.event('state', JSON.stringify(changed));
      // A job whose metadata is gone was purged: as final as a deleted one.
      const purged = sent !== null && sight.metadata === null;
      sent = sight.metadata;
      for (;;) {
        const page = await feed.read(kind, next);
        for (const r of page) out.event(EVENT_OF[kind], asJson(r), r.pos);
        if (page.length) next = page[page.length - 1].pos + 1;
        await out.drained();
        if (out.gone || page.length < READ_PAGE) break;
      }
      const state = sight.metadata?.state;
      if (purged || (typeof state === 'string' && FINAL_STATES.includes(state))) {
        out.event('end', '{}');
        return;
      }
      await Promise.race([feed.changed(sight.version), out.closing]);
    }
  }
}

/**
 * Where a stream starts: after `Last-Event-ID` (what a reconnecting EventSource sends; it
 * wins over the query, which still holds the first connection's), else after `?after=`,
 * else at `?start=` (a position, or a full record key of this job), else at the first record.
 */
function firstPosition(req: FastifyRequest, job: JobKey): number {
  const lastId = req.headers['last-event-id'];
  const header = Array.isArray(lastId) ? lastId[0] : lastId;
  if (header !== undefined && header.trim() !== '') return positionAfter(header.trim(), 'Last-Event-ID');
  const q = queryOf(req);
  const after = single(q, 'after');
  if (after !== undefined) return positionAfter(after, 'after');
  const start = single(q, 'start');
  if (start === undefined) return 0;
  const parts = start.split('/');
  const pos = parsePosition(parts[parts.length - 1]);
  const sameJob = parts.length === 1 || (parts.length === 4 && parts.slice(0, 3).map(parseId).join('/') === formatJobKey(job));
  if (pos === null || !sameJob) throw ApiError.badRequest(`Invalid start: ${JSON.stringify(start)} (a record position, or a key like ${formatJobKey(job)}/3)`);
  return pos;
}

function positionAfter(value: string, name: string): number {
  const pos = parsePosition(value);
  if (pos === null) throw ApiError.badRequest(`Invalid ${name}: ${JSON.stringify(value)} (a record position, an integer from 0 to ${MAX_POSITION})`);
  return pos + 1;
}

/**
 * The fields of `now` that differ from `before` (all of them at first), with `state`
 * always among them; null when nothing changed. A field deleted since reads null.
 */
function changedFields(before: Record<string, unknown> | null, now: Record<string, unknown> | null): Record<string, unknown> | null {
  if (now === null) return before === null ? null : { state: null };
  const changed: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(now)) if (before === null || JSON.stringify(before[k]) !== JSON.stringify(v)) changed[k] = v;
  for (const k of Object.keys(before ?? {})) if (!(k in now)) changed[k] = null;
  if (Object.keys(changed).length === 0) return null;
  return { state: now.state ?? null, ...changed };
}

/** The wire side of one stream: SSE framing, keepalive comments, back-pressure and the client's going. */
class EventStream {
  gone = false;
  /** Resolves when the client goes (or the stream is closed). */
  readonly closing: Promise<void>;
  private readonly keepalive: NodeJS.Timeout;

  constructor(private readonly raw: ServerResponse, keepaliveMs: number) {
    this.closing = new Promise((resolve) => {
      const gone = () => {
        this.gone = true;
        resolve();
      };
      raw.once('close', gone);
      raw.once('error', gone);
    });
    this.keepalive = setInterval(() => this.write(': keepalive\n\n'), keepaliveMs);
    // The first bytes go now, so clients and proxies see the stream open before any record.
    this.write(': stream open\n\n');
  }

  /** One event; `data` is one line of JSON (compact JSON never holds a raw newline). */
  event(name: string, data: string, id?: number): void {
    this.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${data}\n\n`);
  }

  /** Waits until what was written went to the socket, or the client went. */
  async drained(): Promise<void> {
    if (this.gone || !this.raw.writableNeedDrain) return;
    await Promise.race([new Promise((r) => this.raw.once('drain', r)), this.closing]);
  }

  private write(text: string): void {
    if (!this.gone) this.raw.write(text);
  }

  close(): void {
    clearInterval(this.keepalive);
    if (!this.raw.writableEnded) this.raw.end();
    this.gone = true;
  }
}
