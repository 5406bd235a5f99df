import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createEvent, FRONTIER_BATCHES_LEASED, FRONTIER_TOPIC, FrontierBatchesLeased, frontierSlotKey } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { FRONTIER_VIEW, FrontierView, StoredBatch } from '../../ports/frontier.view';
import { LeaseBatchesCommand } from './lease-batches.command';

/**
 * Appends the lease request; the slot's owner picks the batches when it applies it
 * (so two readers never get the same batch) and records their ids; answers with those
 * batches (one deleted in the meantime is left out).
 */
@CommandHandler(LeaseBatchesCommand)
export class LeaseBatchesHandler implements ICommandHandler<LeaseBatchesCommand, StoredBatch[]> {
  constructor(private readonly writer: EventWriter, @Inject(FRONTIER_VIEW) private readonly view: FrontierView) {}

  async execute(cmd: LeaseBatchesCommand): Promise<StoredBatch[]> {
    const { project, frontier, slot } = cmd.slot;
    const requestId = randomUUID();
    const data: FrontierBatchesLeased = { requestId, project, frontier, slot, mincount: cmd.mincount, leaseMs: cmd.leaseMs, start: cmd.start };
    await this.writer.appendAndWait(FRONTIER_TOPIC, [createEvent({ type: FRONTIER_BATCHES_LEASED, key: frontierSlotKey(project, frontier, slot), data, actor: cmd.actor })]);
    const outcome = await this.view.outcome(requestId);
    if (!outcome || !('leased' in outcome)) throw new Error(`no lease recorded for frontier request ${requestId}`);
    return this.view.batchesById(cmd.slot, outcome.leased);
  }
}
