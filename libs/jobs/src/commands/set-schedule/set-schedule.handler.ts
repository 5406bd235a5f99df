import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SCHEDULE_DELETED, SCHEDULE_SET, SCHEDULES_TOPIC } from '@crawlhub/contracts';
import { ApiError } from '@crawlhub/http';
import { EventWriter } from '@crawlhub/views';
import { SCHEDULES_VIEW, SchedulesView } from '../../ports/schedules.view';
import { SetScheduleCommand } from './set-schedule.command';

/** Appends the change (key: the project) and waits until the schedules view shows it. */
@CommandHandler(SetScheduleCommand)
export class SetScheduleHandler implements ICommandHandler<SetScheduleCommand, void> {
  constructor(private readonly writer: EventWriter, @Inject(SCHEDULES_VIEW) private readonly view: SchedulesView) {}

  async execute(cmd: SetScheduleCommand): Promise<void> {
    const { change } = cmd;
    if ('delete' in change && !(await this.view.get(change.delete.project, change.delete.id))) {
      throw new ApiError(404, `no schedule ${change.delete.id} in project ${change.delete.project}`);
    }
    const event =
      'set' in change
        ? this.writer.createEvent({ type: SCHEDULE_SET, key: String(change.set.project), data: change.set, actor: cmd.actor })
        : this.writer.createEvent({ type: SCHEDULE_DELETED, key: String(change.delete.project), data: change.delete, actor: cmd.actor });
    await this.writer.appendAndWait(SCHEDULES_TOPIC, [event]);
  }
}
