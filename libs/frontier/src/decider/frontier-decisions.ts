import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { LogPosition } from '@crawlhub/eventlog';
import { PROJECTION_STORE, ProjectionLagError, ProjectionStore } from '@crawlhub/views';
import { FRONTIER_VIEW, FrontierView } from '../ports/frontier.view';

/** Longest pause between two looks at the views while a decision is awaited (a projector in another process wakes nobody). */
const MAX_POLL_MS = 20;

/** How handlers wait for the frontier decider: until the views have folded the fact of their request. */
@Injectable()
export class FrontierDecisions {
  constructor(
    @Inject(FRONTIER_VIEW) private readonly view: FrontierView,
    @Inject(PROJECTION_STORE) private readonly store: ProjectionStore,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
  ) {}

  /**
   * Resolves once the request's partition's decided-through mark reaches it (its fact and
   * the documents it wrote are readable); ProjectionLagError (503) after the
   * read-your-writes bound.
   */
  async folded(request: LogPosition): Promise<void> {
    const deadline = Date.now() + this.config.readYourWritesTimeoutMs;
    while ((await this.view.decidedThrough(request.partition)) < request.offset) {
      const left = deadline - Date.now();
      if (left <= 0) throw new ProjectionLagError();
      // Woken when a projector of this process applies a batch.
      await this.store.nextChange(Math.min(left, MAX_POLL_MS));
    }
  }
}
