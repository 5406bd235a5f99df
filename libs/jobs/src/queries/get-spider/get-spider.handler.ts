import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SpiderDoc } from '../../domain/job';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';
import { GetSpiderQuery, ListSpidersQuery } from './get-spider.query';

@QueryHandler(GetSpiderQuery)
export class GetSpiderHandler implements IQueryHandler<GetSpiderQuery, SpiderDoc | null> {
  constructor(@Inject(JOBS_VIEW) private readonly view: JobsView) {}

  execute({ project, spider }: GetSpiderQuery): Promise<SpiderDoc | null> {
    return 'name' in spider ? this.view.spiderByName(project, spider.name) : this.view.spiderById(project, spider.id);
  }
}

@QueryHandler(ListSpidersQuery)
export class ListSpidersHandler implements IQueryHandler<ListSpidersQuery, SpiderDoc[]> {
  constructor(@Inject(JOBS_VIEW) private readonly view: JobsView) {}

  execute({ project }: ListSpidersQuery): Promise<SpiderDoc[]> {
    return this.view.spiders(project);
  }
}
