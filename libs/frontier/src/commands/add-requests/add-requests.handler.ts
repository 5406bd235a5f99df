import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createEvent, FRONTIER_REQUESTS_ADDED, FRONTIER_TOPIC, FrontierRequestsAdded, frontierSlotKey } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { EventWriter } from '@crawlhub/views';
import { requestLine } from '../../domain/requests';
import { readRequestBody } from '../../ingestion/request-body';
import { FRONTIER_VIEW, FrontierView } from '../../ports/frontier.view';
import { AddRequestsCommand } from './add-requests.command';

/**
 * Checks the whole body first (nothing is appended unless every line is a good
 * request), appends it as one `frontier.requests-added` event, and answers with the
 * newcount the slot's owner recorded when it applied the event.
 */
@CommandHandler(AddRequestsCommand)
export class AddRequestsHandler implements ICommandHandler<AddRequestsCommand, { newcount: number }> {
  constructor(
    private readonly writer: EventWriter,
    @Inject(FRONTIER_VIEW) private readonly view: FrontierView,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
  ) {}

  async execute(cmd: AddRequestsCommand): Promise<{ newcount: number }> {
    const lines = await readRequestBody(cmd.body, this.config.frontier.maxPostBytes, requestLine);
    if (lines.length === 0) return { newcount: 0 };
    const { project, frontier, slot } = cmd.slot;
    const requestId = randomUUID();
    const data: FrontierRequestsAdded = { requestId, project, frontier, slot };
    await this.writer.appendAndWait(FRONTIER_TOPIC, [
      createEvent({ type: FRONTIER_REQUESTS_ADDED, key: frontierSlotKey(project, frontier, slot), data, lines, actor: cmd.actor }),
    ]);
    const outcome = await this.view.outcome(requestId);
    if (!outcome || !('newcount' in outcome)) throw new Error(`no newcount recorded for frontier request ${requestId}`);
    return { newcount: outcome.newcount };
  }
}
