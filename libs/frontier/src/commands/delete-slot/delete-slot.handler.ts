import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createEvent, FRONTIER_SLOT_DELETED, FRONTIER_TOPIC, FrontierSlotDeleted, frontierSlotKey } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { DeleteSlotCommand } from './delete-slot.command';

@CommandHandler(DeleteSlotCommand)
export class DeleteSlotHandler implements ICommandHandler<DeleteSlotCommand, void> {
  constructor(private readonly writer: EventWriter) {}

  async execute(cmd: DeleteSlotCommand): Promise<void> {
    const { project, frontier, slot } = cmd.slot;
    const data: FrontierSlotDeleted = { project, frontier, slot };
    await this.writer.appendAndWait(FRONTIER_TOPIC, [createEvent({ type: FRONTIER_SLOT_DELETED, key: frontierSlotKey(project, frontier, slot), data, actor: cmd.actor })]);
  }
}
