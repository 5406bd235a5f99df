import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';
import { GetBotgroupsQuery } from './get-botgroups.query';

export type Botgroups = { name: string; maxRunning: number | null }[];

@QueryHandler(GetBotgroupsQuery)
export class GetBotgroupsHandler implements IQueryHandler<GetBotgroupsQuery, Botgroups> {
  constructor(@Inject(JOBS_VIEW) private readonly view: JobsView) {}

  execute({ names }: GetBotgroupsQuery): Promise<Botgroups> {
    return this.view.botgroups(names);
  }
}
