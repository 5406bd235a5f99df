import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { FRONTIER_BATCHES_DELETED, FrontierBatchesDeleted } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { FrontierDecisions } from '../../decider/frontier-decisions';
import { deletedIds } from '../../domain/requests';
import { readRequestBody } from '../../ingestion/request-body';
import { DeleteBatchesCommand } from './delete-batches.command';

/** Every line of the body in one request (all or nothing); answers once its fact is folded: the queue no longer serves them. */
@CommandHandler(DeleteBatchesCommand)
export class DeleteBatchesHandler implements ICommandHandler<DeleteBatchesCommand, void> {
  constructor(private readonly decisions: FrontierDecisions, @Inject(CONFIG) private readonly config: CrawlhubConfig) {}

  async execute(cmd: DeleteBatchesCommand): Promise<void> {
    const ids = [...new Set((await readRequestBody(cmd.body, this.config.frontier.maxPostBytes, deletedIds)).flat())];
    if (ids.length === 0) return;
    const { project, frontier, slot } = cmd.slot;
    const data: FrontierBatchesDeleted = { project, frontier, slot, ids };
    await this.decisions.decide(cmd.slot, { type: FRONTIER_BATCHES_DELETED, data }, cmd.actor);
  }
}
