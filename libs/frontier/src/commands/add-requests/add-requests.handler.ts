import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { FRONTIER_REQUESTS_ADDED, FrontierRequestsAdded } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { FrontierDecisions } from '../../decider/frontier-decisions';
import { requestLine } from '../../domain/requests';
import { readRequestBody } from '../../ingestion/request-body';
import { FRONTIER_VIEW, FrontierView } from '../../ports/frontier.view';
import { AddRequestsCommand } from './add-requests.command';

/**
 * Checks the whole body first (nothing is appended unless every line is a good
 * request), appends it as one `frontier.requests-added` request, and answers with the
 * newcount the slot's decider decided, once the views have folded its fact.
 */
@CommandHandler(AddRequestsCommand)
export class AddRequestsHandler implements ICommandHandler<AddRequestsCommand, { newcount: number }> {
  constructor(
    private readonly decisions: FrontierDecisions,
    @Inject(FRONTIER_VIEW) private readonly view: FrontierView,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
  ) {}

  async execute(cmd: AddRequestsCommand): Promise<{ newcount: number }> {
    const lines = await readRequestBody(cmd.body, this.config.frontier.maxPostBytes, requestLine);
    if (lines.length === 0) return { newcount: 0 };
    const { project, frontier, slot } = cmd.slot;
    const requestId = this.decisions.newRequestId();
    const data: FrontierRequestsAdded = { requestId, project, frontier, slot };
    await this.decisions.decide(cmd.slot, { type: FRONTIER_REQUESTS_ADDED, data, lines }, cmd.actor);
    const outcome = await this.view.outcome(requestId);
    if (!outcome || !('newcount' in outcome)) throw new Error(`frontier request ${requestId} could not be decided (its frontier.decided fact says why; see the projector's log)`);
    return { newcount: outcome.newcount };
  }
}
