import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { jobsByState } from '@crawlhub/ops';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';

/** /metrics of the dash role: jobs per state over every project, read from the views when scraped. */
@Injectable()
export class JobsMetrics implements OnModuleDestroy {
  private readonly unlist: () => void;

  constructor(@Inject(JOBS_VIEW) view: JobsView) {
    this.unlist = jobsByState.add(async () => {
      const totals = new Map<string, number>();
      for (const { counts } of await view.stateCounts()) for (const [state, n] of Object.entries(counts)) totals.set(state, (totals.get(state) ?? 0) + n);
      return [...totals].map(([state, value]) => ({ labels: { state }, value }));
    });
  }

  onModuleDestroy(): void {
    this.unlist();
  }
}
