import { Inject, Injectable } from '@nestjs/common';
import { ACTIVITY_VIEW, ActivityView, recordActivity } from '@crawlhub/activity';
import { BOTGROUP_CHANGED, BotgroupChanged, JOBS_REQUESTED_TYPES, JOBS_TOPIC, JobsRequested, RUNNER_HEARTBEAT, RunnerHeartbeat } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { decideJobs, JobsDecision } from '../domain/decide-jobs';
import { JOBS_VIEW, JobsView } from '../ports/jobs.view';

/**
 * The single decider of a project's jobs: it applies the project's requests in log
 * order, records each outcome under its request id, then writes the documents the
 * decision produced. A decision already recorded (an event applied again after a crash
 * on MongoDB) is reused, never taken twice. Runner heartbeats and botgroup changes are
 * facts: they are written, nothing is decided.
 */
@AsProjection()
@Injectable()
export class JobsProjection implements Projection {
  readonly topics = [JOBS_TOPIC];

  constructor(@Inject(JOBS_VIEW) private readonly view: JobsView, @Inject(ACTIVITY_VIEW) private readonly activity: ActivityView) {}

  async apply(e: LoggedEvent): Promise<void> {
    if (e.event.type === RUNNER_HEARTBEAT) {
      const d = e.event.data as RunnerHeartbeat;
      await this.view.putRunners(e, d.project, { put: [{ project: d.project, runner: d.runner, silentSince: null }], drop: [] });
      return;
    }
    if (e.event.type === BOTGROUP_CHANGED) {
      const d = e.event.data as BotgroupChanged;
      await this.view.putBotgroup(e, d.name, d.deleted ? undefined : d.maxRunning);
      return;
    }
    if (!JOBS_REQUESTED_TYPES.includes(e.event.type)) return;
    const d = e.event.data as JobsRequested;
    const decision =
      (await this.view.outcome(d.requestId)) ?? (await decideJobs(this.view, { project: d.project, at: e.event.occurredAt, order: e.offset }, d.request));
    if (recordsOutcome(decision)) await this.view.saveOutcome(e, d.requestId, decision);
    await this.view.putSpiders(e, decision.effects.spiders);
    await this.view.putJobs(e, decision.effects.jobs);
    if (decision.effects.purge) await this.view.dropJobs(e, decision.effects.purge);
    if (decision.effects.settings) await this.view.putSettings(e, d.project, decision.effects.settings);
    const scrapy = decision.effects.scrapySettings;
    if (scrapy) await this.view.putScrapySettings(e, d.project, scrapy.spider, scrapy.settings);
    if (decision.effects.runners) await this.view.putRunners(e, d.project, decision.effects.runners);
    // job:scheduled, job:started, job:completed, job:cancelled, job:deleted, as the original records them.
    if (decision.effects.activity.length) await recordActivity(this.activity, e, d.project, decision.effects.activity.map((a) => ({ ...a })));
  }
}

/**
 * A runner check that failed no job leaves no outcome: there is one per project with
 * running jobs every RUNNER_HEARTBEAT_MS, and deciding it again changes nothing.
 */
export function recordsOutcome(decision: JobsDecision): boolean {
  return decision.outcome.op !== 'check-runners' || decision.outcome.failed.length > 0;
}
