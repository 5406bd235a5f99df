import { Inject, Injectable } from '@nestjs/common';
import { ACTIVITY_VIEW, ActivityView, recordActivity } from '@crawlhub/activity';
import { BOTGROUP_CHANGED, BotgroupChanged, JOBS_DECIDED, JOBS_TOPIC, JobsDecided, RUNNER_HEARTBEAT, RunnerHeartbeat } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { JobsDecision } from '../domain/decide-jobs';
import { JOBS_VIEW, JobsView } from '../ports/jobs.view';

/**
 * The jobs views: a plain fold over the facts of the jobs topic. A `jobs.decided` fact
 * writes the documents its decision carries, records the decision under its request id and
 * moves the partition's decided-through mark, all with the same checkpoint; a fact for a
 * request at or below the mark (a second fact of a request: a decider that died after
 * appending, before it knew) is ignored, so a decision takes effect once. Requests are not
 * applied at all: JobsDecider decides them and appends the facts. Runner heartbeats and
 * botgroup changes are facts too: they are written, nothing is decided.
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
    if (e.event.type !== JOBS_DECIDED) return;
    const d = e.event.data as JobsDecided;
    if (d.requestOffset <= (await this.view.decidedThrough(e.partition))) return;
    if (d.decision !== undefined) await this.applyDecision(e, d, d.decision as JobsDecision);
    // Last: on MongoDB (no transactions) a caller that sees the mark finds the documents written.
    await this.view.markDecided(e, e.partition, d.requestOffset);
  }

  private async applyDecision(e: LoggedEvent, d: JobsDecided, decision: JobsDecision): Promise<void> {
    await this.view.putSpiders(e, decision.effects.spiders);
    await this.view.putJobs(e, decision.effects.jobs);
    if (decision.effects.purge) await this.view.dropJobs(e, decision.effects.purge);
    if (decision.effects.settings) await this.view.putSettings(e, d.project, decision.effects.settings);
    const scrapy = decision.effects.scrapySettings;
    if (scrapy) await this.view.putScrapySettings(e, d.project, scrapy.spider, scrapy.settings);
    // At the request's place in the stream: a heartbeat appended after it was heard after it.
    if (decision.effects.runners) await this.view.putRunners(e, d.project, decision.effects.runners, d.requestOffset);
    // job:scheduled, job:started, job:completed, job:cancelled, job:deleted, as the original records them:
    // under the request's id, time and place in the stream, as they were before decisions were facts.
    if (decision.effects.activity.length) {
      const asRequested: LoggedEvent = { ...e, offset: d.requestOffset, event: { ...e.event, id: e.event.causationId ?? e.event.id, occurredAt: d.requestedAt } };
      await recordActivity(this.activity, asRequested, d.project, decision.effects.activity.map((a) => ({ ...a })));
    }
    if (recordsOutcome(decision)) await this.view.saveOutcome(e, d.requestId, decision);
  }
}

/**
 * A runner check that failed no job keeps no decision in the view: there is one per
 * project with running jobs every RUNNER_HEARTBEAT_MS. Its fact is in the log all the same.
 */
export function recordsOutcome(decision: JobsDecision): boolean {
  return decision.outcome.op !== 'check-runners' || decision.outcome.failed.length > 0;
}
