import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Schedule, SCHEDULES_VIEW, SchedulesView } from '../../ports/schedules.view';
import { ListSchedulesQuery } from './list-schedules.query';

@QueryHandler(ListSchedulesQuery)
export class ListSchedulesHandler implements IQueryHandler<ListSchedulesQuery, Schedule[]> {
  constructor(@Inject(SCHEDULES_VIEW) private readonly view: SchedulesView) {}

  execute({ project }: ListSchedulesQuery): Promise<Schedule[]> {
    return this.view.list(project);
  }
}
