import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SpiderDoc } from '../../domain/job';
import { JobsRequests } from '../shared/jobs-requests';
import { ChangeSpiderCommand } from './change-spider.command';

/** The spider as it is now, or null (tags of a spider id that does not exist). */
@CommandHandler(ChangeSpiderCommand)
export class ChangeSpiderHandler implements ICommandHandler<ChangeSpiderCommand, SpiderDoc | null> {
  constructor(private readonly requests: JobsRequests) {}

  async execute({ project, change, by, actor }: ChangeSpiderCommand): Promise<SpiderDoc | null> {
    const request =
      'create' in change
        ? { op: 'spider' as const, name: change.create, id: null, create: true, add: [], remove: [], by }
        : { op: 'spider' as const, name: null, id: change.id, create: false, add: change.add, remove: change.remove, by };
    return (await this.requests.decide(project, request, actor)).spider;
  }
}
