import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BOTGROUP_CHANGED, BotgroupChanged, JOBS_TOPIC } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { SetBotgroupCommand } from './set-botgroup.command';

/** Appends the change (key `botgroup:<name>`) and waits until the jobs view shows it. */
@CommandHandler(SetBotgroupCommand)
export class SetBotgroupHandler implements ICommandHandler<SetBotgroupCommand, void> {
  constructor(private readonly writer: EventWriter) {}

  async execute(cmd: SetBotgroupCommand): Promise<void> {
    const data: BotgroupChanged = { name: cmd.name, maxRunning: cmd.deleted ? null : cmd.maxRunning, deleted: cmd.deleted };
    await this.writer.appendAndWait(JOBS_TOPIC, [this.writer.createEvent({ type: BOTGROUP_CHANGED, key: `botgroup:${cmd.name}`, data, actor: cmd.actor })]);
  }
}
