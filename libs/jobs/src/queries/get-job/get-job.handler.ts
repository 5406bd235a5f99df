import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JobDoc } from '../../domain/job';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';
import { GetJobQuery } from './get-job.query';

@QueryHandler(GetJobQuery)
export class GetJobHandler implements IQueryHandler<GetJobQuery, JobDoc | null> {
  constructor(@Inject(JOBS_VIEW) private readonly view: JobsView) {}

  execute({ key }: GetJobQuery): Promise<JobDoc | null> {
    return this.view.job(key);
  }
}
