import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Clock, CLOCK } from '@crawlhub/contracts';
import { PushJobCommand, PushJobInput } from '../commands/push-job/push-job.command';
import { OutcomeOf } from '../commands/shared/jobs-requests';
import { lastFireBetween, parseCron } from '../domain/cron';
import { JOBS_VIEW, JobsView } from '../ports/jobs.view';
import { Schedule, SCHEDULES_VIEW, SchedulesView } from '../ports/schedules.view';

/**
 * Fires periodic jobs. Its state is the log: the last slot a schedule fired is read from
 * the jobs its fires created, and the decider takes each (schedule, slot) once, so a
 * restart neither loses nor doubles a run and several schedulers can run at once.
 *
 * Misfire policy (coalesce): slots missed while no scheduler ran produce one run, for
 * the latest missed slot; then the schedule continues normally. A run is pushed even
 * when the previous run of the schedule is still going.
 */
@Injectable()
export class PeriodicScheduler implements OnModuleDestroy {
  private readonly logger = new Logger('Scheduler');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  /** Schedules whose last try failed (`project/id`): their failure is logged once, not at every tick. */
  private readonly failing = new Set<string>();

  constructor(
    private readonly commands: CommandBus,
    @Inject(SCHEDULES_VIEW) private readonly schedules: SchedulesView,
    @Inject(JOBS_VIEW) private readonly jobs: JobsView,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  start(intervalMs: number): void {
    const loop = () => {
      this.running = this.tick(this.clock.now())
        .catch((e) => this.logger.error(`tick failed: ${e}`))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(loop, intervalMs);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  /**
   * Pushes every run that is due at `now`; answers the keys of the jobs created. A
   * schedule that fails (a cron stored before the rules changed, a refused push) is logged
   * once with its id and passed: the others fire all the same, and it is tried at the next tick.
   */
  async tick(now: number): Promise<string[]> {
    const created: string[] = [];
    for (const s of await this.schedules.list()) {
      if (!s.enabled) continue;
      const name = `${s.project}/${s.id}`;
      try {
        const key = await this.fire(s, now);
        if (key !== null) created.push(key);
        this.failing.delete(name);
      } catch (e) {
        if (!this.failing.has(name)) this.logger.error(`schedule ${s.id} of project ${s.project} (${JSON.stringify(s.cron)}) could not fire, tried again at every tick: ${(e as Error).message ?? e}`);
        this.failing.add(name);
      }
    }
    return created;
  }

  /** The schedule's run due at `now`, if any: the key of the job it created, or null. */
  private async fire(s: Schedule, now: number): Promise<string | null> {
    const since = (await this.jobs.lastFire(s.project, s.id)) ?? s.createdAt;
    const due = lastFireBetween(parseCron(s.cron), since, now);
    if (due === null) return null;
    const outcome = await this.commands.execute<PushJobCommand, OutcomeOf<'push'>>(new PushJobCommand(s.project, runOf(s, due), { kind: 'system', id: 'scheduler' }));
    if (outcome.error) return null;
    this.logger.log(`schedule ${s.id} (${s.cron}) fired ${outcome.key} for ${new Date(due).toISOString()}`);
    return outcome.key;
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}

/** The push of a schedule's run for `slot`: checked as every push is (PushJobCommand). */
function runOf(s: Schedule, slot: number): PushJobInput {
  return {
    spider: s.spider,
    priority: s.priority,
    units: s.units,
    tags: s.tags,
    spiderArgs: s.spiderArgs,
    meta: { schedule: s.id },
    spiderType: 'periodic',
    by: 'periodicjobs',
    fire: { schedule: s.id, slot },
  };
}
