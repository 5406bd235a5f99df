import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JobsRequests, OutcomeOf } from '../shared/jobs-requests';
import { UpdateJobsCommand } from './update-jobs.command';

/** `{prevstate, key}` per updated job, and the refusals (a state change the decider's table does not allow). */
@CommandHandler(UpdateJobsCommand)
export class UpdateJobsHandler implements ICommandHandler<UpdateJobsCommand, OutcomeOf<'update'>> {
  constructor(private readonly requests: JobsRequests) {}

  execute(cmd: UpdateJobsCommand): Promise<OutcomeOf<'update'>> {
    return this.requests.decide(cmd.project, { op: 'update', updates: cmd.updates, by: cmd.by }, cmd.actor);
  }
}
