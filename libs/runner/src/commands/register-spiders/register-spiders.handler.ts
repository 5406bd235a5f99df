import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SPIDER_COMMANDS_REGISTERED, SPIDER_COMMANDS_TOPIC, SpiderCommandsRegistered } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { checkSpiderCommand, SpiderCommandError } from '../../domain/spider-command';
import { RegisterSpidersCommand } from './register-spiders.command';

/**
 * Every registration is checked first, then they travel in one event: a file of spiders
 * is registered whole or not at all. Answers once the view has applied it.
 */
@CommandHandler(RegisterSpidersCommand)
export class RegisterSpidersHandler implements ICommandHandler<RegisterSpidersCommand, { spiders: number }> {
  constructor(private readonly writer: EventWriter) {}

  async execute(cmd: RegisterSpidersCommand): Promise<{ spiders: number }> {
    if (!Number.isSafeInteger(cmd.project) || cmd.project < 0) throw new SpiderCommandError(`invalid project id: ${cmd.project}`);
    if (cmd.spiders.length === 0) throw new SpiderCommandError('no spider to register');
    const spiders = cmd.spiders.map((s) => checkSpiderCommand(s));
    const names = new Set(spiders.map((s) => s.spider));
    if (names.size !== spiders.length) throw new SpiderCommandError('a spider is registered twice in one request');
    const event = this.writer.createEvent<SpiderCommandsRegistered>({
      type: SPIDER_COMMANDS_REGISTERED,
      key: String(cmd.project),
      data: { project: cmd.project, spiders },
      actor: cmd.actor,
    });
    await this.writer.appendAndWait(SPIDER_COMMANDS_TOPIC, [event]);
    return { spiders: spiders.length };
  }
}
