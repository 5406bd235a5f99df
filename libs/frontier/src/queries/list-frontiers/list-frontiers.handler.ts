import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FRONTIER_VIEW, FrontierView } from '../../ports/frontier.view';
import { ListFrontiersQuery } from './list-frontiers.query';

@QueryHandler(ListFrontiersQuery)
export class ListFrontiersHandler implements IQueryHandler<ListFrontiersQuery, string[]> {
  constructor(@Inject(FRONTIER_VIEW) private readonly view: FrontierView) {}

  execute(q: ListFrontiersQuery): Promise<string[]> {
    return q.frontier === null ? this.view.frontiers(q.project) : this.view.slots(q.project, q.frontier);
  }
}
