import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JobsRequests } from '../shared/jobs-requests';
import { ChangeSettingsCommand } from './change-settings.command';

/** The project's settings as they are now. */
@CommandHandler(ChangeSettingsCommand)
export class ChangeSettingsHandler implements ICommandHandler<ChangeSettingsCommand, Record<string, unknown>> {
  constructor(private readonly requests: JobsRequests) {}

  async execute(cmd: ChangeSettingsCommand): Promise<Record<string, unknown>> {
    return (await this.requests.decide(cmd.project, { op: 'settings', set: cmd.set, remove: cmd.remove, by: cmd.by }, cmd.actor)).settings;
  }
}
