import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { batchLine } from '../../domain/batches';
import { enough } from '../../domain/lease';
import { FRONTIER_VIEW, FrontierView } from '../../ports/frontier.view';
import { ReadQueueQuery } from './read-queue.query';

/** Pages of batch lines, read from the view page by page as the response streams. */
@QueryHandler(ReadQueueQuery)
export class ReadQueueHandler implements IQueryHandler<ReadQueueQuery, AsyncIterable<string[]>> {
  constructor(@Inject(FRONTIER_VIEW) private readonly view: FrontierView) {}

  async execute(q: ReadQueueQuery): Promise<AsyncIterable<string[]>> {
    return readQueue(this.view, q);
  }
}

async function* readQueue(view: FrontierView, q: ReadQueueQuery): AsyncGenerator<string[]> {
  // Batches hold up to 100 requests: ask for about what mincount needs, within bounds.
  const page = Math.min(1000, Math.max(10, Math.ceil(q.mincount / 50)));
  let range: { from?: string; after?: string } = q.start === null ? {} : { from: q.start };
  let batches = 0;
  let requests = 0;
  for (;;) {
    const found = await view.batches(q.slot, range, page);
    const lines: string[] = [];
    for (const b of found) {
      if (enough(batches, requests, q.mincount)) break;
      if (b.leasedUntil > q.now) continue;
      lines.push(batchLine(b));
      batches++;
      requests += b.count;
    }
    if (lines.length) yield lines;
    if (enough(batches, requests, q.mincount) || found.length < page) return;
    range = { after: found[found.length - 1].id };
  }
}
