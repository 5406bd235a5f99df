import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SPIDER_COMMANDS_TOPIC, SPIDER_COMMANDS_UNREGISTERED, SpiderCommandsUnregistered } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { SpiderCommandError } from '../../domain/spider-command';
import { UnregisterSpidersCommand } from './unregister-spiders.command';

@CommandHandler(UnregisterSpidersCommand)
export class UnregisterSpidersHandler implements ICommandHandler<UnregisterSpidersCommand, void> {
  constructor(private readonly writer: EventWriter) {}

  async execute(cmd: UnregisterSpidersCommand): Promise<void> {
    const spiders = [...new Set(cmd.spiders)];
    if (spiders.length === 0 || spiders.some((s) => typeof s !== 'string' || s === '')) throw new SpiderCommandError('spider is required');
    const event = this.writer.createEvent<SpiderCommandsUnregistered>({
      type: SPIDER_COMMANDS_UNREGISTERED,
      key: String(cmd.project),
      data: { project: cmd.project, spiders },
      actor: cmd.actor,
    });
    await this.writer.appendAndWait(SPIDER_COMMANDS_TOPIC, [event]);
  }
}
