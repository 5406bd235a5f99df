import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JobDoc } from '../../domain/job';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';
import { CountJobsQuery, ListJobsQuery } from './list-jobs.query';

@QueryHandler(ListJobsQuery)
export class ListJobsHandler implements IQueryHandler<ListJobsQuery, JobDoc[]> {
  constructor(@Inject(JOBS_VIEW) private readonly view: JobsView) {}
  execute(q: ListJobsQuery): Promise<JobDoc[]> {
    return this.view.list(q.filter, q.page);
  }
}

@QueryHandler(CountJobsQuery)
export class CountJobsHandler implements IQueryHandler<CountJobsQuery, number> {
  constructor(@Inject(JOBS_VIEW) private readonly view: JobsView) {}
  execute(q: CountJobsQuery): Promise<number> {
    return this.view.count(q.filter);
  }
}
