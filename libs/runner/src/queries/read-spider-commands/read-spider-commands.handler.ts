import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { RegisteredSpider } from '../../domain/spider-command';
import { SPIDER_COMMANDS_VIEW, SpiderCommandsView } from '../../ports/spider-commands.view';
import { ReadSpiderCommandsQuery } from './read-spider-commands.query';

@QueryHandler(ReadSpiderCommandsQuery)
export class ReadSpiderCommandsHandler implements IQueryHandler<ReadSpiderCommandsQuery, RegisteredSpider[]> {
  constructor(@Inject(SPIDER_COMMANDS_VIEW) private readonly view: SpiderCommandsView) {}

  execute(q: ReadSpiderCommandsQuery): Promise<RegisteredSpider[]> {
    return this.view.list(q.project);
  }
}
