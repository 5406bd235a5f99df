import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';
import { GetScrapySettingsQuery, GetSettingsQuery } from './get-settings.query';

@QueryHandler(GetSettingsQuery)
export class GetSettingsHandler implements IQueryHandler<GetSettingsQuery, Record<string, unknown>> {
  constructor(@Inject(JOBS_VIEW) private readonly view: JobsView) {}

  execute({ project }: GetSettingsQuery): Promise<Record<string, unknown>> {
    return this.view.settings(project);
  }
}

@QueryHandler(GetScrapySettingsQuery)
export class GetScrapySettingsHandler implements IQueryHandler<GetScrapySettingsQuery, Record<string, unknown>> {
  constructor(@Inject(JOBS_VIEW) private readonly view: JobsView) {}

  execute({ project, spider }: GetScrapySettingsQuery): Promise<Record<string, unknown>> {
    return this.view.scrapySettings(project, spider);
  }
}
