import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CollectionType } from '@crawlhub/contracts';
import { COLLECTIONS_VIEW, CollectionsView } from '../../ports/collections.view';
import { ListCollectionsQuery } from './list-collections.query';

@QueryHandler(ListCollectionsQuery)
export class ListCollectionsHandler implements IQueryHandler<ListCollectionsQuery, { type: CollectionType; name: string }[]> {
  constructor(@Inject(COLLECTIONS_VIEW) private readonly view: CollectionsView) {}

  execute(q: ListCollectionsQuery): Promise<{ type: CollectionType; name: string }[]> {
    return this.view.list(q.project);
  }
}
