import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JobsRequests, OutcomeOf } from '../shared/jobs-requests';
import { TagJobsCommand } from './tag-jobs.command';

/** How many jobs had their tags changed. */
@CommandHandler(TagJobsCommand)
export class TagJobsHandler implements ICommandHandler<TagJobsCommand, OutcomeOf<'tags'>> {
  constructor(private readonly requests: JobsRequests) {}

  execute(cmd: TagJobsCommand): Promise<OutcomeOf<'tags'>> {
    return this.requests.decide(cmd.project, { op: 'tags', ...cmd.tags, by: cmd.by }, cmd.actor);
  }
}
