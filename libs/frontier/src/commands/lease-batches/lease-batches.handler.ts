import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { FRONTIER_BATCHES_LEASED, FrontierBatchesLeased } from '@crawlhub/contracts';
import { FrontierDecisions } from '../../decider/frontier-decisions';
import { FRONTIER_VIEW, FrontierView, StoredBatch } from '../../ports/frontier.view';
import { LeaseBatchesCommand } from './lease-batches.command';

/**
 * Appends the lease request; the slot's decider picks the batches (so two readers never
 * get the same batch) and appends them in its fact; answers with those batches once the
 * views have folded it (one deleted in the meantime is left out).
 */
@CommandHandler(LeaseBatchesCommand)
export class LeaseBatchesHandler implements ICommandHandler<LeaseBatchesCommand, StoredBatch[]> {
  constructor(private readonly decisions: FrontierDecisions, @Inject(FRONTIER_VIEW) private readonly view: FrontierView) {}

  async execute(cmd: LeaseBatchesCommand): Promise<StoredBatch[]> {
    const { project, frontier, slot } = cmd.slot;
    const requestId = this.decisions.newRequestId();
    const data: FrontierBatchesLeased = { requestId, project, frontier, slot, mincount: cmd.mincount, leaseMs: cmd.leaseMs, start: cmd.start };
    await this.decisions.decide(cmd.slot, { type: FRONTIER_BATCHES_LEASED, data }, cmd.actor);
    const outcome = await this.view.outcome(requestId);
    if (!outcome || !('leased' in outcome)) throw new Error(`frontier request ${requestId} could not be decided (its frontier.decided fact says why; see the projector's log)`);
    return this.view.batchesById(cmd.slot, outcome.leased);
  }
}
