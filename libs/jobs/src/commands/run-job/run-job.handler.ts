import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ApiError } from '@crawlhub/http';
import { RUNNABLE_SPIDERS, RunnableSpiders } from '../../ports/runnable-spiders';
import { JobsRequests, OutcomeOf } from '../shared/jobs-requests';
import { RunJobCommand } from './run-job.command';

/**
 * A job of a deployed spider keeps the version it was scheduled with (its `version` and
 * `deploy_id`); a spider the project's deployed version lacks, with no command registered,
 * is refused at once.
 */
@CommandHandler(RunJobCommand)
export class RunJobHandler implements ICommandHandler<RunJobCommand, OutcomeOf<'push'>> {
  constructor(private readonly requests: JobsRequests, @Optional() @Inject(RUNNABLE_SPIDERS) private readonly runnable: RunnableSpiders | null) {}

  async execute({ push, extras }: RunJobCommand): Promise<OutcomeOf<'push'>> {
    const { request } = push;
    const run = (await this.runnable?.resolve(push.project, request.spider)) ?? { kind: 'undecided' };
    if (run.kind === 'unknown') throw new ApiError(400, `Spider ${request.spider} not found`);
    const meta = {
      ...request.meta,
      ...(run.kind === 'deployed' ? { version: run.version, deploy_id: run.deployId } : {}),
      ...(extras.environment ? { environment: extras.environment } : {}),
      ...(extras.cmdArgs ? { cmd_args: extras.cmdArgs } : {}),
      api_url: extras.apiUrl,
    };
    return this.requests.decide(push.project, { ...request, meta }, push.actor, push.requestId);
  }
}
