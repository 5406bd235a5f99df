import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createEvent, SCHEDULE_DELETED, SCHEDULE_SET, SCHEDULES_TOPIC } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { SetScheduleCommand } from './set-schedule.command';

@CommandHandler(SetScheduleCommand)
export class SetScheduleHandler implements ICommandHandler<SetScheduleCommand, void> {
  constructor(private readonly writer: EventWriter) {}

  async execute(cmd: SetScheduleCommand): Promise<void> {
    const event =
      'set' in cmd.change
        ? createEvent({ type: SCHEDULE_SET, key: String(cmd.change.set.project), data: cmd.change.set, actor: cmd.actor })
        : createEvent({ type: SCHEDULE_DELETED, key: String(cmd.change.delete.project), data: cmd.change.delete, actor: cmd.actor });
    await this.writer.appendAndWait(SCHEDULES_TOPIC, [event]);
  }
}
