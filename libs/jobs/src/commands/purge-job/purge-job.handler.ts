import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ApiError } from '@crawlhub/http';
import { JobsRequests } from '../shared/jobs-requests';
import { PurgeJobCommand } from './purge-job.command';

/** Done also for a job that does not exist; a job that is not deleted yet is refused (400). */
@CommandHandler(PurgeJobCommand)
export class PurgeJobHandler implements ICommandHandler<PurgeJobCommand, void> {
  constructor(private readonly requests: JobsRequests) {}

  async execute(cmd: PurgeJobCommand): Promise<void> {
    const outcome = await this.requests.decide(cmd.project, { op: 'purge', key: cmd.key, by: cmd.by }, cmd.actor);
    if (outcome.error) throw new ApiError(400, outcome.error);
  }
}
