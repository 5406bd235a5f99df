import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { FRONTIER_SLOT_DELETED, FrontierSlotDeleted } from '@crawlhub/contracts';
import { FrontierDecisions } from '../../decider/frontier-decisions';
import { DeleteSlotCommand } from './delete-slot.command';

/** Answers once the request's fact is folded: the slot's queue and fingerprints are gone. */
@CommandHandler(DeleteSlotCommand)
export class DeleteSlotHandler implements ICommandHandler<DeleteSlotCommand, void> {
  constructor(private readonly decisions: FrontierDecisions) {}

  async execute(cmd: DeleteSlotCommand): Promise<void> {
    const { project, frontier, slot } = cmd.slot;
    const data: FrontierSlotDeleted = { project, frontier, slot };
    await this.decisions.decide(cmd.slot, { type: FRONTIER_SLOT_DELETED, data }, cmd.actor);
  }
}
