import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { mkdir, rm } from 'node:fs/promises';
import { runnerUnits } from '@crawlhub/ops';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { Actor, CLOCK, Clock, IDS, Ids, JobKey, parseJobKey, SpiderCommandSpec } from '@crawlhub/contracts';
import { DeployedJobs } from '@crawlhub/deploys';
import { JOBS_VIEW, JobDoc, JobsView, maxRunningOf, RunnerHeartbeatCommand, StartJobCommand, tokenOfRun, UpdateJobsCommand } from '@crawlhub/jobs';
import { JOB_TOKEN_SECRET } from '@crawlhub/platform';
import { JOB_RECORDS_VIEW, JobRecordsView } from '@crawlhub/storage';
import { ProjectionLagError } from '@crawlhub/views';
import { jobLaunch, launchJobOf } from '../domain/job-launch';
import { RegisteredSpider } from '../domain/spider-command';
import { SPIDER_COMMANDS_VIEW, SpiderCommandsView } from '../ports/spider-commands.view';
import { durable, openJobSink, SINK_BATCH_RECORDS } from './job-sink';
import { JobNotRunnable, JobRun } from './job-run';
import { LOG_ERROR, LOG_INFO, RecordSink } from './record-sink';
import { persistentRunnerId } from './runner-id';

export const RUNNER_OPTIONS = Symbol('RUNNER_OPTIONS');

/** Overrides of the configuration (tests start several runners in one process; apps pass the real ports). */
export interface RunnerOptions {
  id?: string;
  units?: number;
  pollMs?: number;
  heartbeatMs?: number;
  stopGraceMs?: number;
  storageUrl?: string;
  apiUrl?: string;
}

interface Active {
  key: string;
  project: number;
  units: number;
  run: JobRun;
  /** The job left `running` without us (finished or deleted through the API): its process is stopped, its state left alone. */
  gone: boolean;
}

const FLUSH_MS = 1000;
const DRAIN_MS = 5000;
/** How often running jobs claimed under this runner's id are checked against the ones it runs. */
const RECONCILE_MS = 15_000;
const PAGE = 1000;
/** How many orphans a restarted runner finishes at once. */
const ORPHAN_CONCURRENCY = 16;

/**
 * The runner role. Every poll it watches its running jobs for stop requests, then claims
 * pending jobs of registered spiders (highest priority first, within its free units)
 * through the jobs decider, which hands each job to one runner only, and runs each as a
 * child process (JobRun). When a process ends, its data is written and the job finishes
 * with its close reason. At start it finishes, as failed, the jobs a previous run of the
 * same runner id left running. While it runs jobs it heartbeats (one small event per
 * project of its jobs every RUNNER_HEARTBEAT_MS; nothing when idle), so that the jobs of a
 * runner that never comes back are finished as failed by the runner checks (LostRunnerWatch).
 */
@Injectable()
export class Runner implements OnApplicationShutdown {
  private readonly logger = new Logger('Runner');
  readonly id: string;
  readonly units: number;
  private readonly pollMs: number;
  private readonly heartbeatMs: number;
  private readonly stopGraceMs: number;
  readonly storageUrl: string;
  readonly apiUrl: string;
  private readonly actor: Actor;
  /** This runner's folder for the jobs' FIFOs and working directories; emptied at start. */
  readonly workRoot: string;
  private readonly active = new Map<string, Active>();
  private readonly finishing = new Set<Promise<void>>();
  /** Per project: the (pending, free units) for which a claim found nothing, until something changes. */
  private readonly emptyClaims = new Map<number, { signature: string; until: number }>();
  private timer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private running = false;
  private startedAt = 0;
  private lastReconcile = 0;
  /**
   * Claims whose answer was lost (the views lagged past READ_YOUR_WRITES_TIMEOUT_MS): request
   * id → project. Each may have given this runner a job of up to all its free units, so
   * nothing more is claimed until every one's outcome is read (resolveLostClaims).
   */
  private readonly lostClaims = new Map<string, number>();
  /**
   * Jobs whose final state this runner put in the log, until the views show it: a view
   * that lags still lists them running under this runner's id, and they must not look
   * like jobs to start (a second run of a job that ended) or orphans to fail.
   */
  private readonly ended = new Set<string>();
  /** Jobs whose process ended but whose final state could not be written yet: their close reason. */
  private readonly unfinished = new Map<string, string>();
  private rotation = 0;

  constructor(
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    @Inject(RUNNER_OPTIONS) options: RunnerOptions,
    @Inject(JOB_TOKEN_SECRET) private readonly secret: string,
    private readonly commands: CommandBus,
    @Inject(JOBS_VIEW) private readonly jobs: JobsView,
    @Inject(SPIDER_COMMANDS_VIEW) private readonly spiders: SpiderCommandsView,
    @Inject(JOB_RECORDS_VIEW) private readonly records: JobRecordsView,
    private readonly deployed: DeployedJobs,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDS) private readonly ids: Ids,
  ) {
    const r = config.runner;
    this.id = options.id ?? r.id ?? persistentRunnerId(join(config.dataDir, 'runner-id'));
    this.units = options.units ?? r.units;
    this.pollMs = options.pollMs ?? r.pollMs;
    this.heartbeatMs = options.heartbeatMs ?? r.heartbeatMs;
    this.stopGraceMs = options.stopGraceMs ?? r.stopGraceMs;
    const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
    this.storageUrl = options.storageUrl ?? r.storageUrl ?? `http://${host}:${config.ports.storage}/`;
    this.apiUrl = options.apiUrl ?? r.apiUrl ?? `http://${host}:${config.ports.dash}/api/`;
    this.actor = { kind: 'system', id: `runner:${this.id}` };
    this.workRoot = join(tmpdir(), `crawlhub-runner-${this.id.replace(/[^A-Za-z0-9_.-]/g, '_')}`);
  }

  /** Units taken by the jobs it runs now. */
  get busyUnits(): number {
    let n = 0;
    for (const a of this.active.values()) n += a.units;
    return n;
  }

  /** Keys of the jobs it runs now. */
  get runningJobs(): string[] {
    return [...this.active.keys()];
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.startedAt = this.clock.now(); // compared with the claims' times
    // What a previous run of this runner left behind (it died before cleaning up).
    await rm(this.workRoot, { recursive: true, force: true });
    await mkdir(this.workRoot, { recursive: true, mode: 0o700 });
    await this.finishOrphans();
    this.lastReconcile = performance.now();
    this.schedule(0);
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), this.heartbeatMs);
    this.unlistMetrics = runnerUnits.add(() => [
      { labels: { runner: this.id, state: 'busy' }, value: this.busyUnits },
      { labels: { runner: this.id, state: 'free' }, value: Math.max(0, this.units - this.busyUnits) },
    ]);
  }

  /** Takes this runner's units out of /metrics (set while it runs). */
  private unlistMetrics = (): void => undefined;

  /**
   * Tells each project whose jobs it runs (or has yet to finish) that it is alive. A
   * failed heartbeat is only logged: the next one comes soon, and RUNNER_LOST_MS leaves room for several.
   */
  private async heartbeat(): Promise<void> {
    const projects = new Set<number>([...this.active.values()].map((a) => a.project));
    for (const key of this.unfinished.keys()) projects.add(parseJobKey(key).project);
    if (projects.size === 0) return;
    try {
      await this.commands.execute(new RunnerHeartbeatCommand(this.id, [...projects], this.actor));
    } catch (e) {
      this.logger.warn(`heartbeat failed: ${(e as Error).message}`);
    }
  }

  /** Polls now instead of at the next interval (after a job ended, say). */
  poke(): void {
    if (this.running && !this.ticking) this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.ticking = this.tick().finally(() => {
        this.ticking = null;
        if (this.running && !this.timer) this.schedule(this.pollMs);
      });
    }, ms);
  }

  private async tick(): Promise<void> {
    try {
      await this.watch();
      await this.resolveLostClaims();
      if (this.unfinished.size || performance.now() - this.lastReconcile >= RECONCILE_MS) await this.reconcile();
      await this.claim();
    } catch (e) {
      this.logger.error(`poll failed: ${(e as Error).stack ?? e}`);
    }
  }

  /** Stop requests, and jobs that left `running` through someone else. */
  private async watch(): Promise<void> {
    const byProject = new Map<number, Active[]>();
    for (const a of this.active.values()) byProject.set(a.project, [...(byProject.get(a.project) ?? []), a]);
    for (const [project, list] of byProject) {
      const docs = await this.jobs.list({ project, keys: list.map((a) => a.key) }, { offset: 0, limit: list.length });
      const byKey = new Map(docs.map((d) => [d.key, d]));
      for (const a of list) {
        const doc = byKey.get(a.key);
        if (!doc || doc.state !== 'running') {
          a.gone = true;
          a.run.stop('cancelled');
        } else if (doc.meta.stop_requested === true) {
          a.run.stop('cancelled');
        }
      }
    }
  }

  private async claim(): Promise<void> {
    let free = this.units - this.busyUnits;
    if (free <= 0 || !this.running || this.lostClaims.size) return;
    const projects = [...new Set([...(await this.spiders.projects()), ...(await this.deployed.projects())])].sort((a, b) => a - b);
    if (projects.length === 0) return;
    const start = this.rotation++ % projects.length;
    const order = [...projects.slice(start), ...projects.slice(0, start)];
    for (const project of order) {
      if (free <= 0 || !this.running) return;
      const registered = await this.spiders.list(project);
      const byName = new Map(registered.map((s) => [s.spider, s]));
      const runnable = [...new Set([...byName.keys(), ...(await this.deployed.spiders(project))])];
      const spiderIds = (await this.jobs.spiders(project)).filter((s) => runnable.includes(s.name)).map((s) => s.id);
      const maxRunning = spiderIds.length ? await maxRunningOf(this.jobs, project) : null;
      while (free > 0 && this.running && spiderIds.length) {
        const pending = await this.jobs.count({ project, states: ['pending'], spiderIds });
        if (pending === 0) break;
        // The project runs as many jobs as its botgroups allow: no claim (and no event) until one ends.
        const running = maxRunning === null ? 0 : await this.jobs.count({ project, states: ['running'] });
        if (maxRunning !== null && running >= maxRunning) break;
        const signature = `${pending}:${running}:${free}:${spiderIds.join(',')}`;
        const empty = this.emptyClaims.get(project);
        if (empty && empty.signature === signature && empty.until > performance.now()) break;
        const job = await this.claimOne(project, free, runnable);
        if (!job) {
          this.emptyClaims.set(project, { signature, until: performance.now() + 30_000 });
          break;
        }
        this.emptyClaims.delete(project);
        const spider = byName.get(job.spider);
        free -= job.units;
        await this.launch(job, spider ?? null);
      }
    }
  }

  /** One claim (StartJobCommand, within the project's botgroups' limit): the decider gives this runner the next job that fits, or none. */
  private async claimOne(project: number, maxUnits: number, spiders: string[]): Promise<JobDoc | null> {
    // The claim's own id: the outcome of a claim whose answer is lost is read later under it.
    const requestId = this.ids.uuid();
    const claim = new StartJobCommand(project, { maxUnits, spiders, fields: { _runner: this.id }, by: 'jobrunner' }, this.actor, requestId);
    try {
      return await this.commands.execute<StartJobCommand, JobDoc | null>(claim);
    } catch (e) {
      // The claim is in the log but its outcome is not readable yet: resolveLostClaims reads it later.
      if (e instanceof ProjectionLagError) this.lostClaims.set(requestId, project);
      else this.logger.error(`claiming a job of project ${project} failed: ${(e as Error).message}`);
      return null;
    }
  }

  /**
   * The outcomes of lost claims, once the views have them: a job a lost claim got is
   * started now (unless it left running meanwhile); a claim that got nothing is forgotten.
   */
  private async resolveLostClaims(): Promise<void> {
    for (const [requestId, project] of this.lostClaims) {
      const decision = await this.jobs.outcome(requestId);
      if (!decision) continue;
      const key = decision.outcome.op === 'start' ? decision.outcome.key : null;
      const job = key === null || this.active.has(key) ? null : await this.jobDoc(project, key);
      // On MongoDB the outcome is written before the job: wait for the job too.
      if (job?.state === 'pending') continue;
      this.lostClaims.delete(requestId);
      if (job?.state === 'running' && job.meta._runner === this.id && this.running) await this.launch(job, await this.spiders.get(project, job.spider));
    }
  }

  private async jobDoc(project: number, key: string): Promise<JobDoc | null> {
    const [doc] = await this.jobs.list({ project, keys: [key] }, { offset: 0, limit: 1 });
    return doc ?? null;
  }

  /**
   * Starts the job: its units are taken at once, its process starts when its command is
   * known, and its end finishes the job. A job of a deployed version whose environment
   * this runner must build first waits for the build without holding up the poll (other
   * claims, stop requests, other jobs go on); a stop request ends it at once.
   */
  private async launch(job: JobDoc, registered: RegisteredSpider | null): Promise<void> {
    const key = job.key;
    const sink = await this.sinkFor(parseJobKey(key));
    // A build outlives a job stopped while it waited: its lines no longer go to the job's log.
    let ended = false;
    const prepared = this.commandOf(job, registered, (line) => {
      if (!ended) sink.log(LOG_INFO, line);
    });
    const launchJob = launchJobOf(key, job.meta);
    // A job claimed before runs had ids has no token to give: its process gets an empty one.
    const token = (await tokenOfRun(job, this.secret)) ?? '';
    const command = prepared.then(({ spider }) => ({
      cwd: spider.cwd,
      launchOf: (fifoPath: string) => jobLaunch(launchJob, spider, { token, fifoPath, storageUrl: this.storageUrl, apiUrl: this.apiUrl, passEnv: this.config.runner.passEnv }),
    }));
    const run = new JobRun(
      key,
      command,
      sink,
      { workRoot: this.workRoot, stopGraceMs: this.stopGraceMs, maxRecordBytes: this.config.maxRecordBytes, flushMs: FLUSH_MS, drainMs: DRAIN_MS, highWater: 4 * SINK_BATCH_RECORDS },
      `[crawlhub runner] runner ${this.id} starts job ${key}`,
    );
    const active: Active = { key, project: job.project, units: job.units, run, gone: false };
    this.active.set(key, active);
    const finishing = run.done
      .then((result) => {
        ended = true;
        return result.closeReason;
      })
      .catch((e) => {
        this.logger.error(`job ${key}: ${(e as Error).stack ?? e}`);
        return 'failed';
      })
      .then((closeReason) => this.finish(active, closeReason))
      .catch((e) => this.logger.error(`job ${key}: ${(e as Error).stack ?? e}`))
      .finally(() => {
        // The environment's lease ends with the job, or when its build ends if the job was stopped before.
        void prepared.then(({ release }) => release(), () => undefined);
        this.active.delete(key);
        this.finishing.delete(finishing);
        this.poke();
      });
    this.finishing.add(finishing);
  }

  /**
   * What the job runs: its version's environment for a job of a deployed version (built
   * on this runner first if need be, its build log going to the job's log), else the
   * registered command. Fails with JobNotRunnable when there is nothing it can run.
   */
  private async commandOf(job: JobDoc, registered: RegisteredSpider | null, log: (line: string) => void): Promise<{ spider: SpiderCommandSpec; release(): void }> {
    const deployId = DeployedJobs.deployIdOf(job.meta);
    if (deployId === null) {
      if (!registered) throw new JobNotRunnable(`[crawlhub runner] spider ${JSON.stringify(job.spider)} has no registered command`);
      return { spider: registered, release: () => undefined };
    }
    try {
      return await this.deployed.prepare(job.project, job.spider, deployId, log);
    } catch (e) {
      throw new JobNotRunnable(`[crawlhub runner] the environment of deploy ${deployId} is not usable: ${(e as Error).message}`);
    }
  }

  /** Records go where the job's data ends now (0 for a new job), each kind on its own. */
  private sinkFor(job: JobKey): Promise<RecordSink> {
    return openJobSink({ commands: this.commands, records: this.records, config: this.config, logger: this.logger, clock: this.clock }, job);
  }

  private async finish(active: Active, closeReason: string): Promise<void> {
    if (active.gone) return;
    try {
      await this.finishJob(active.project, active.key, closeReason);
    } catch (e) {
      // Never run it again: the next reconcile writes this state.
      this.unfinished.set(active.key, closeReason);
      throw e;
    }
  }

  /** state=finished with its close reason, retried until it is in the log. */
  private async finishJob(project: number, key: string, closeReason: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await durable(this.commands.execute(new UpdateJobsCommand(project, [{ key, state: 'finished', fields: { close_reason: closeReason } }], 'jobrunner', this.actor)));
        this.ended.add(key);
        return;
      } catch (e) {
        if (attempt >= 20) throw e;
        this.logger.warn(`finishing job ${key} failed (${(e as Error).message}); retrying`);
        await new Promise((r) => setTimeout(r, Math.min(250 * 2 ** attempt, 10_000)));
      }
    }
  }

  /** Running jobs claimed under this runner's id, in every project. */
  private async ownRunningJobs(): Promise<JobDoc[]> {
    const out: JobDoc[] = [];
    for (const { project, counts } of await this.jobs.stateCounts()) {
      if (!counts.running) continue;
      for (let offset = 0; ; offset += PAGE) {
        const page = await this.jobs.list({ project, states: ['running'] }, { offset, limit: PAGE });
        out.push(...page.filter((j) => j.meta._runner === this.id));
        if (page.length < PAGE) break;
      }
    }
    return out;
  }

  /**
   * A previous run of this runner died with jobs running: their processes are gone, they
   * finish as failed. Several at a time (each waits for its writes to be applied), so a
   * runner that died with many jobs is soon claiming again.
   */
  private async finishOrphans(): Promise<void> {
    const orphans = await this.ownRunningJobs();
    const failures: unknown[] = [];
    const worker = async () => {
      for (let job = orphans.shift(); job; job = orphans.shift()) await this.failOrphan(job).catch((e) => failures.push(e));
    };
    await Promise.all(Array.from({ length: ORPHAN_CONCURRENCY }, worker));
    if (failures.length) throw failures[0];
  }

  private async failOrphan(job: JobDoc): Promise<void> {
    this.logger.warn(`job ${job.key} was left running by a previous run of runner ${this.id}: finishing it as failed`);
    const sink = await this.sinkFor(parseJobKey(job.key));
    sink.log(LOG_ERROR, `[crawlhub runner] runner ${this.id} restarted: the job's process was lost, the job finishes as failed`);
    await sink.flush();
    await this.finishJob(job.project, job.key, 'failed');
  }

  /**
   * Jobs running under this id that it does not run (and did not end): claimed by this
   * very process when a claim's answer was lost (the views were slow) are started now;
   * older ones are orphans.
   */
  private async reconcile(): Promise<void> {
    this.lastReconcile = performance.now();
    const own = await this.ownRunningJobs();
    const running = new Set(own.map((j) => j.key));
    for (const key of this.unfinished.keys()) if (!running.has(key)) this.unfinished.delete(key);
    for (const key of this.ended) if (!running.has(key)) this.ended.delete(key);
    for (const job of own) {
      if (this.active.has(job.key) || this.ended.has(job.key) || !this.running) continue;
      const closeReason = this.unfinished.get(job.key);
      if (closeReason !== undefined) {
        await this.finishJob(job.project, job.key, closeReason);
        this.unfinished.delete(job.key);
        continue;
      }
      const claimedAt = typeof job.meta.running_time === 'number' ? job.meta.running_time : 0;
      if (claimedAt >= this.startedAt) await this.launch(job, await this.spiders.get(job.project, job.spider));
      else await this.failOrphan(job);
    }
  }

  /** Stops polling; running jobs are stopped (SIGTERM, then SIGKILL) and finish with `shutdown` unless they wrote a close reason. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unlistMetrics();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.ticking;
    // Heartbeats go on while its jobs stop and finish: they are still its jobs.
    for (const a of this.active.values()) a.run.stop('shutdown');
    await Promise.all([...this.finishing]);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
    await rm(this.workRoot, { recursive: true, force: true }).catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }
}
