import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createEvent, FRONTIER_SLOT_DELETED, FRONTIER_TOPIC, FrontierSlotDeleted, frontierSlotKey } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { FrontierDecisions } from '../../decider/frontier-decisions';
import { DeleteSlotCommand } from './delete-slot.command';

/** Answers once the request's fact is folded: the slot's queue and fingerprints are gone. */
@CommandHandler(DeleteSlotCommand)
export class DeleteSlotHandler implements ICommandHandler<DeleteSlotCommand, void> {
  constructor(private readonly writer: EventWriter, private readonly decisions: FrontierDecisions) {}

  async execute(cmd: DeleteSlotCommand): Promise<void> {
    const { project, frontier, slot } = cmd.slot;
    const data: FrontierSlotDeleted = { project, frontier, slot };
    const [request] = await this.writer.append(FRONTIER_TOPIC, [createEvent({ type: FRONTIER_SLOT_DELETED, key: frontierSlotKey(project, frontier, slot), data, actor: cmd.actor })]);
    await this.decisions.folded(request);
  }
}
