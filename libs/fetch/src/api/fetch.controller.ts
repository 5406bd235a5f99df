import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasCapability } from '@crawlhub/access';
import { Clock, CLOCK, FETCH_REQUESTED, FETCH_REQUESTS_TOPIC, FetchRequested, IDS, Ids, RENDER_REQUESTS_TOPIC } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { actorOf, readText, RequestPrincipal } from '@crawlhub/http';
import { EventWriter } from '@crawlhub/views';
import { fetchParamsOf, parseForm, parseJson } from '../domain/fetch-params';
import { fetchResponseOf } from '../domain/fetch-response';
import { FetchApiError } from './fetch-api-error';
import { FetchResults } from './fetch-results';

/** Largest request body (the parameters, with the body for the website). */
export const MAX_FETCH_REQUEST_BYTES = 4 * 1024 * 1024;
/** A result may arrive a little after the deadline the worker checked. */
const RESULT_GRACE_MS = 1_000;

@Controller()
export class FetchController {
  constructor(
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    private readonly principals: RequestPrincipal,
    private readonly writer: EventWriter,
    private readonly results: FetchResults,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDS) private readonly ids: Ids,
  ) {}

  /**
   * POST /fetch/v2 (spec "Fetch (current, experimental)"): the key needs the `browser`
   * capability even without rendering (else 401). The request goes to the log for a
   * worker; the answer is 200 with the fetch response object whatever the website did.
   */
  @Post('fetch/v2')
  async fetch(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await this.principals.require(req);
    if (!hasCapability(principal, 'browser')) throw new FetchApiError(401, 'unauthorized', 'this key may not use the fetch API: it lacks browser execution (crawlhub keys grant <key-id> browser)');
    const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== '' && type !== 'application/json' && type !== 'application/x-www-form-urlencoded') {
      throw new FetchApiError(415, 'unsupported_media_type', 'send the parameters as application/x-www-form-urlencoded or application/json');
    }
    const text = await readText(req, MAX_FETCH_REQUEST_BYTES);
    const params = fetchParamsOf(type === 'application/json' ? parseJson(text) : parseForm(text));
    const id = this.ids.uuid();
    const deadline = this.clock.now() + this.config.fetch.deadlineMs;
    const request: FetchRequested = { id, user: principal.id, ...params, body: params.body === null ? null : Buffer.from(params.body, 'utf8').toString('base64'), deadline };
    const waiting = this.results.expect(id, this.config.fetch.deadlineMs + RESULT_GRACE_MS);
    try {
      await this.writer.append(params.render ? RENDER_REQUESTS_TOPIC : FETCH_REQUESTS_TOPIC, [this.writer.createEvent({ type: FETCH_REQUESTED, key: id, data: request, actor: actorOf(principal) })]);
    } catch (e) {
      waiting.cancel();
      throw new FetchApiError(503, 'unavailable', `the fetch could not be queued (event log: ${(e as Error).message}); retry`);
    }
    const done = await waiting.result;
    if (done === null) throw new FetchApiError(503, 'no_answer', `no worker answered within ${this.config.fetch.deadlineMs} ms (workers down or overloaded); retry`);
    return reply.status(200).header('content-type', 'application/json').send(JSON.stringify(fetchResponseOf(done)));
  }
}
