import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JobsRequests } from '../shared/jobs-requests';
import { ChangeScrapySettingsCommand } from './change-scrapy-settings.command';

/** The Scrapy settings of the project or spider as they are now. */
@CommandHandler(ChangeScrapySettingsCommand)
export class ChangeScrapySettingsHandler implements ICommandHandler<ChangeScrapySettingsCommand, Record<string, unknown>> {
  constructor(private readonly requests: JobsRequests) {}

  async execute(cmd: ChangeScrapySettingsCommand): Promise<Record<string, unknown>> {
    return (await this.requests.decide(cmd.project, { op: 'scrapy-settings', ...cmd.change, by: cmd.by }, cmd.actor)).settings;
  }
}
