import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { Actor, Clock, CLOCK, parseJobKey } from '@crawlhub/contracts';
import { CheckRunnersCommand, JOBS_VIEW, JobsView, LostJob, lostJobMessage } from '@crawlhub/jobs';
import { JOB_RECORDS_VIEW, JobRecordsView } from '@crawlhub/storage';
import { openJobSink } from '../running/job-sink';
import { LOG_ERROR } from '../running/record-sink';

/**
 * Finds the jobs of runners that never came back. Every RUNNER_HEARTBEAT_MS, for each
 * project with running jobs claimed by a runner, it appends a runner check (topic `jobs`);
 * the project's jobs decider compares the check's time with the runners' heartbeats in
 * the stream and finishes the jobs of a runner silent for RUNNER_LOST_MS as failed (with
 * an activity entry). This watch then writes the same reason as the last line of each
 * such job's log. It runs in the dash role, as the periodic scheduler does; with nothing
 * running it appends nothing.
 */
@Injectable()
export class LostRunnerWatch implements OnModuleDestroy {
  private readonly logger = new Logger('LostRunnerWatch');
  private readonly actor: Actor = { kind: 'system', id: 'runner-watch' };
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    private readonly commands: CommandBus,
    @Inject(JOBS_VIEW) private readonly jobs: JobsView,
    @Inject(JOB_RECORDS_VIEW) private readonly records: JobRecordsView,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Rounds start every RUNNER_HEARTBEAT_MS at a fixed rate (a slow round delays the next
   * one, never the ones after), so checks are at most that far apart and a lost runner's
   * job ends at most RUNNER_LOST_MS + 2 × RUNNER_HEARTBEAT_MS after its last heartbeat.
   */
  start(): void {
    const every = this.config.runner.heartbeatMs;
    const loop = () => {
      const due = performance.now() + every;
      this.running = this.check()
        .catch((e) => this.logger.error(`runner check failed: ${(e as Error).stack ?? e}`))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(loop, Math.max(0, due - performance.now()));
        });
    };
    this.timer = setTimeout(loop, every);
  }

  /** One round of checks; answers the jobs it found lost. */
  async check(): Promise<LostJob[]> {
    const lost: LostJob[] = [];
    for (const project of await this.jobs.projectsWithRunnerJobs()) {
      const failed = await this.commands.execute<CheckRunnersCommand, LostJob[]>(new CheckRunnersCommand(project, this.config.runner.lostMs, this.actor));
      for (const job of failed) {
        this.logger.warn(`job ${job.key} finished as failed: ${lostJobMessage(job)}`);
        await this.logLost(job).catch((e) => this.logger.error(`job ${job.key}: could not write why it failed to its log: ${(e as Error).message}`));
        lost.push(job);
      }
    }
    return lost;
  }

  private async logLost(job: LostJob): Promise<void> {
    const sink = await openJobSink({ commands: this.commands, records: this.records, config: this.config, logger: this.logger, clock: this.clock }, parseJobKey(job.key));
    sink.log(LOG_ERROR, `[crawlhub runner] ${lostJobMessage(job)}`);
    await sink.flush();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
