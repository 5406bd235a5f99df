import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock, FETCH_REQUESTED, FETCH_REQUESTS_TOPIC, FetchCompleted, FetchRequested, IDS, Ids, RENDER_REQUESTS_TOPIC } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { EventWriter } from '@crawlhub/views';
import { FetchApiError } from '../../api/fetch-api-error';
import { FetchResults } from '../../api/fetch-results';
import { FetchPageCommand } from './fetch-page.command';

/** A result may arrive a little after the deadline the worker checked. */
const RESULT_GRACE_MS = 1_000;

/**
 * Appends the fetch request for a worker (plain or render queue) and waits for its
 * `fetch.completed`; a 503 in the fetch API's style when the log refuses the request or
 * no worker answers before the deadline.
 */
@CommandHandler(FetchPageCommand)
export class FetchPageHandler implements ICommandHandler<FetchPageCommand, FetchCompleted> {
  constructor(
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDS) private readonly ids: Ids,
    private readonly writer: EventWriter,
    private readonly results: FetchResults,
  ) {}

  async execute({ user, actor, params }: FetchPageCommand): Promise<FetchCompleted> {
    const id = this.ids.uuid();
    const deadline = this.clock.now() + this.config.fetch.deadlineMs;
    const request: FetchRequested = { id, user, ...params, body: params.body === null ? null : Buffer.from(params.body, 'utf8').toString('base64'), deadline };
    const waiting = this.results.expect(id, this.config.fetch.deadlineMs + RESULT_GRACE_MS);
    try {
      await this.writer.append(params.render ? RENDER_REQUESTS_TOPIC : FETCH_REQUESTS_TOPIC, [this.writer.createEvent({ type: FETCH_REQUESTED, key: id, data: request, actor })]);
    } catch (e) {
      waiting.cancel();
      throw FetchApiError.retryLater('unavailable', `the fetch could not be queued (event log: ${(e as Error).message}); retry`);
    }
    const done = await waiting.result;
    if (done === null) throw FetchApiError.retryLater('no_answer', `no worker answered within ${this.config.fetch.deadlineMs} ms (workers down or overloaded); retry`);
    return done;
  }
}
