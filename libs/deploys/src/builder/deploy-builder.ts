import { hostname } from 'node:os';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DEPLOY_BUILT, DEPLOY_FAILED, DEPLOY_LOG, DEPLOY_REQUESTED, DEPLOYS_TOPIC, DeployBuilt, DeployFailed, DeployLog, DeployRequested, EventEnvelope } from '@crawlhub/contracts';
import { Consumption, consumeWorkQueue, EVENT_LOG, EventLog, Limiter } from '@crawlhub/eventlog';
import { EventWriter } from '@crawlhub/views';
import { BuildError, PythonEnvironments } from '../environments/python-environments';

/** The consumer group of the runners that build deploys. */
export const DEPLOY_BUILDERS_GROUP = 'deploy-builders';
/** Build log lines are appended at most this often (and at the end). */
const LOG_FLUSH_MS = 500;
const LOG_BATCH_LINES = 200;
/** Builds at once in one runner process. */
const CONCURRENT_BUILDS = 2;

/**
 * The runner role's part in a deploy: it takes `deploy.requested` events as a work queue
 * (group `deploy-builders`: each deploy is built by one runner, again by another if that
 * one dies), builds the version's environment on its own disk (which its jobs then find
 * cached), lists the spiders, and appends the build log as it goes (`deploy.log`), then
 * `deploy.built` or `deploy.failed`. User code (setup, requirements, the project's
 * import) thus runs only on the runners' machines, never in the API.
 */
@Injectable()
export class DeployBuilder implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeployBuilder');
  private readonly limiter = new Limiter(CONCURRENT_BUILDS);
  private consumption: Consumption | null = null;
  readonly id = `${hostname()}:${process.pid}`;

  constructor(
    @Inject(EVENT_LOG) private readonly eventLog: EventLog,
    private readonly writer: EventWriter,
    private readonly environments: PythonEnvironments,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.eventLog.ensureTopics([DEPLOYS_TOPIC]);
    this.consumption = await consumeWorkQueue(this.eventLog, { groupId: DEPLOY_BUILDERS_GROUP, topic: DEPLOYS_TOPIC, limiter: this.limiter, work: (e) => this.work(e), failed: (e, error) => this.failed(e, error) });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumption?.stop();
  }

  private async work(event: EventEnvelope): Promise<void> {
    if (event.type !== DEPLOY_REQUESTED) return;
    const d = event.data as DeployRequested;
    const actor = { kind: 'system' as const, id: `builder:${this.id}` };
    const append = (type: string, data: DeployLog | DeployBuilt | DeployFailed) =>
      this.writer.append(DEPLOYS_TOPIC, [this.writer.createEvent({ type, key: String(d.project), data, actor, correlationId: event.correlationId, causationId: event.id })]);
    let pending: string[] = [];
    let flushing = Promise.resolve();
    const flush = () => {
      if (pending.length === 0) return flushing;
      const lines = pending;
      pending = [];
      flushing = flushing.then(() => append(DEPLOY_LOG, { project: d.project, request: d.request, lines })).then(
        () => undefined,
        (e) => this.logger.warn(`deploy ${d.request}: a build log batch was lost: ${(e as Error).message}`),
      );
      return flushing;
    };
    const timer = setInterval(() => void flush(), LOG_FLUSH_MS);
    const log = (line: string) => {
      pending.push(line);
      if (pending.length >= LOG_BATCH_LINES) void flush();
    };
    try {
      log(`[crawlhub] runner ${this.id} builds version ${d.version} of project ${d.project}`);
      const env = await this.environments.ensure({ project: d.project, stack: d.stack, egg: d.egg, eggs: d.eggs, requirements: d.requirements }, log);
      const { spiders, settingsModule } = await this.environments.describe(env, log);
      log(`[crawlhub] spiders: ${spiders.join(', ')}`);
      clearInterval(timer);
      await flush();
      await append(DEPLOY_BUILT, { project: d.project, request: d.request, spiders, settingsModule, builder: this.id });
    } catch (e) {
      clearInterval(timer);
      const reason = e instanceof BuildError ? e.message : `Internal build error: ${(e as Error).message}`;
      if (!(e instanceof BuildError)) this.logger.error(`deploy ${d.request}: ${(e as Error).stack ?? e}`);
      await flush();
      await append(DEPLOY_FAILED, { project: d.project, request: d.request, reason, logTail: e instanceof BuildError ? e.logTail : [], builder: this.id });
    }
  }

  /** A request whose build kept throwing (a poison message) still ends its deploy, as failed: shub gets an answer. */
  private async failed(event: EventEnvelope, error: unknown): Promise<void> {
    if (event.type !== DEPLOY_REQUESTED) return;
    const d = event.data as DeployRequested;
    const actor = { kind: 'system' as const, id: `builder:${this.id}` };
    const reason = `Internal build error: ${(error as Error)?.message ?? String(error)}`;
    await this.writer.append(DEPLOYS_TOPIC, [
      this.writer.createEvent({ type: DEPLOY_FAILED, key: String(d.project), data: { project: d.project, request: d.request, reason, logTail: [], builder: this.id } satisfies DeployFailed, actor, correlationId: event.correlationId, causationId: event.id }),
    ]);
  }
}
