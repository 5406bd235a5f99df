import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { LostJob } from '../../domain/decide-jobs';
import { JobsRequests } from '../shared/jobs-requests';
import { CheckRunnersCommand } from './check-runners.command';

/** The jobs the check found lost (finished as failed). */
@CommandHandler(CheckRunnersCommand)
export class CheckRunnersHandler implements ICommandHandler<CheckRunnersCommand, LostJob[]> {
  constructor(private readonly requests: JobsRequests) {}

  async execute(cmd: CheckRunnersCommand): Promise<LostJob[]> {
    return (await this.requests.decide(cmd.project, { op: 'check-runners', lostMs: cmd.lostMs, by: 'jobrunner' }, cmd.actor)).failed;
  }
}
