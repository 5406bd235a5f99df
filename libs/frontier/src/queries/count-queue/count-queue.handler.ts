import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FRONTIER_VIEW, FrontierView } from '../../ports/frontier.view';
import { CountQueueQuery } from './count-queue.query';

@QueryHandler(CountQueueQuery)
export class CountQueueHandler implements IQueryHandler<CountQueueQuery, { count: number; nextstart?: string }> {
  constructor(@Inject(FRONTIER_VIEW) private readonly view: FrontierView) {}

  async execute(q: CountQueueQuery): Promise<{ count: number; nextstart?: string }> {
    const { count, next } = await this.view.countRequests(q.slot, q.start ?? undefined, q.maxBatches);
    return next === null ? { count } : { count, nextstart: next };
  }
}
