import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JobsRequests, OutcomeOf } from '../shared/jobs-requests';
import { PushJobCommand } from './push-job.command';

/** The new job's key and state, or the refusal (`unique`, a duplicate, a periodic slot already fired). */
@CommandHandler(PushJobCommand)
export class PushJobHandler implements ICommandHandler<PushJobCommand, OutcomeOf<'push'>> {
  constructor(private readonly requests: JobsRequests) {}

  execute(cmd: PushJobCommand): Promise<OutcomeOf<'push'>> {
    return this.requests.decide(cmd.project, cmd.request, cmd.actor, cmd.requestId);
  }
}
