import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { maxRunningOf } from '../../domain/botgroups';
import { JobDoc } from '../../domain/job';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';
import { JobsRequests } from '../shared/jobs-requests';
import { StartJobCommand } from './start-job.command';

/** The job the claim got, running (its document as the views have it now), or null. */
@CommandHandler(StartJobCommand)
export class StartJobHandler implements ICommandHandler<StartJobCommand, JobDoc | null> {
  constructor(private readonly requests: JobsRequests, @Inject(JOBS_VIEW) private readonly view: JobsView) {}

  async execute(cmd: StartJobCommand): Promise<JobDoc | null> {
    // The project's botgroups limit its running jobs, for every claimer (crawlhub's runners and others);
    // the limit travels in the request, so a replay decides the same.
    const maxRunning = await maxRunningOf(this.view, cmd.project);
    const outcome = await this.requests.decide(cmd.project, { op: 'start', maxRunning, ...cmd.claim }, cmd.actor, cmd.requestId);
    return outcome.key === null ? null : this.view.job(outcome.key);
  }
}
