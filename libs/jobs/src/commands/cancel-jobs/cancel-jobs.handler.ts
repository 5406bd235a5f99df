import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JobsRequests, OutcomeOf } from '../shared/jobs-requests';
import { CancelJobsCommand } from './cancel-jobs.command';

/** How many jobs were cancelled or asked to stop. */
@CommandHandler(CancelJobsCommand)
export class CancelJobsHandler implements ICommandHandler<CancelJobsCommand, OutcomeOf<'cancel'>> {
  constructor(private readonly requests: JobsRequests) {}

  execute(cmd: CancelJobsCommand): Promise<OutcomeOf<'cancel'>> {
    return this.requests.decide(cmd.project, { op: 'cancel', keys: cmd.keys, by: cmd.by }, cmd.actor);
  }
}
