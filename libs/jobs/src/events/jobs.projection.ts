import { Inject, Injectable } from '@nestjs/common';
import { ACTIVITY_VIEW, ActivityView, recordActivity } from '@crawlhub/activity';
import { JOBS_REQUESTED_TYPES, JOBS_TOPIC, JobsRequested } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { decideJobs } from '../domain/decide-jobs';
import { JOBS_VIEW, JobsView } from '../ports/jobs.view';

/**
 * The single decider of a project's jobs: it applies the project's requests in log
 * order, records each outcome under its request id, then writes the documents the
 * decision produced. A decision already recorded (an event applied again after a crash
 * on MongoDB) is reused, never taken twice.
 */
@AsProjection()
@Injectable()
export class JobsProjection implements Projection {
  readonly topics = [JOBS_TOPIC];

  constructor(@Inject(JOBS_VIEW) private readonly view: JobsView, @Inject(ACTIVITY_VIEW) private readonly activity: ActivityView) {}

  async apply(e: LoggedEvent): Promise<void> {
    if (!JOBS_REQUESTED_TYPES.includes(e.event.type)) return;
    const d = e.event.data as JobsRequested;
    const decision =
      (await this.view.outcome(d.requestId)) ?? (await decideJobs(this.view, { project: d.project, at: e.event.occurredAt, order: e.offset }, d.request));
    await this.view.saveOutcome(e, d.requestId, decision);
    await this.view.putSpiders(e, decision.effects.spiders);
    await this.view.putJobs(e, decision.effects.jobs);
    if (decision.effects.settings) await this.view.putSettings(e, d.project, decision.effects.settings);
    // job:scheduled, job:started, job:completed, job:cancelled, job:deleted, as the original records them.
    if (decision.effects.activity.length) await recordActivity(this.activity, e, d.project, decision.effects.activity.map((a) => ({ ...a })));
  }
}
