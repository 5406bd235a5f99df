import { INestApplication, INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { mkdtempSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccessService, CreateAccessKeyCommand } from '@crawlhub/access';
import type { KeyCapability } from '@crawlhub/contracts';
import { loadConfig } from '@crawlhub/config';
import { Core, ensureAdminKey, openCore } from '@crawlhub/platform';
import { Projector } from '@crawlhub/views';
import { createProjector } from '../../apps/projector/projector.app';
import { PeriodicScheduler } from '@crawlhub/jobs';
import { startDashApp } from '../../apps/dash/dash.app';
import { startStorageApp } from '../../apps/storage/storage.app';
import { startStatsApp } from '../../apps/proxy/stats.app';
import { startRunner } from '../../apps/runner/runner.app';
import { Runner, RunnerOptions } from '@crawlhub/runner';
import { EventStamps } from '@crawlhub/contracts';

/**
 * A whole platform in this process, on free ports and a fresh data dir, configured
 * from the same environment variables as production (the test lanes set EVENT_LOG,
 * KAFKA_BROKERS, VIEW_STORE, MONGODB_URI). `env` overrides them.
 */
export interface TestPlatform {
  core: Core;
  storageUrl: string;
  /** The dash app's root: the web console (libs/console). */
  consoleUrl: string;
  /** The storage API app, for tests that look inside it (open event streams, say). */
  storageApp: INestApplication;
  /** The dash API base, ending in /api. */
  dashUrl: string;
  /** The dash app's periodic-jobs scheduler, for tests that drive its clock. */
  scheduler: PeriodicScheduler;
  adminKey: string;
  projector: Projector | null;
  createKey(projects: number[], capabilities?: KeyCapability[]): Promise<string>;
  /** Who a key is, as every API sees it. */
  access: AccessService;
  /** The runner started with `options.runner`, or null. */
  runner: Runner | null;
  /** Starts another runner in this process (give each its own `id`); `stop()` stops it too. */
  startRunner(options?: RunnerOptions): Promise<Runner>;
  /** Stops one runner (as its process would on SIGTERM: running jobs end as `shutdown`). */
  stopRunner(runner: Runner): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestPlatform(env: Record<string, string> = {}, options: { projector?: boolean; runner?: boolean | RunnerOptions; stats?: boolean; stamps?: Partial<EventStamps> } = {}): Promise<TestPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crawlhub-e2e-'));
  const unique = `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    STORAGE_PORT: '0',
    DASH_PORT: '0',
    MONGODB_DATABASE: `crawlhub_${unique}`,
    // Platforms of one test run share the Kafka broker: each gets its own topics and groups.
    EVENT_LOG_NAMESPACE: `${unique}-`,
    CRAWLHUB_ADMIN_KEY: '',
    ...env,
  });
  // `stamps`: a test's clock and ids (ManualClock, SequentialIds) for every app of the platform.
  const core = await openCore(config, options.stamps);
  const contexts: INestApplicationContext[] = [];
  let projector: Projector | null = null;
  const { context, projector: p } = await createProjector(core, ['error']);
  contexts.push(context);
  if (options.projector !== false) {
    projector = p;
    await projector.start();
  }
  const app: INestApplication = await startStorageApp(core, ['error']);
  contexts.push(app);
  const port = (app.getHttpServer().address() as AddressInfo).port;
  // The proxy usage stats API, for suites that read it through the console (STATS_PORT 0 unless given).
  let statsUrl: string | undefined;
  if (options.stats) {
    const stats = await startStatsApp(env.STATS_PORT ? core : { ...core, config: { ...core.config, ports: { ...core.config.ports, stats: 0 } } }, ['error']);
    contexts.push(stats);
    statsUrl = `http://127.0.0.1:${(stats.getHttpServer().address() as AddressInfo).port}/`;
  }
  const dash: INestApplication = await startDashApp(core, ['error'], { storage: `http://127.0.0.1:${port}/`, stats: statsUrl });
  contexts.push(dash);
  const dashPort = (dash.getHttpServer().address() as AddressInfo).port;
  const commands = context.get(CommandBus);
  const adminKey = config.adminKey ?? (projector ? (await ensureAdminKey(config, commands)).key : 'no-projector-no-key');
  const runners = new Map<Runner, INestApplicationContext>();
  const addRunner = async (o: RunnerOptions = {}) => {
    const started = await startRunner(core, ['error'], { storageUrl: `http://127.0.0.1:${port}/`, apiUrl: `http://127.0.0.1:${dashPort}/api/`, ...o });
    runners.set(started.runner, started.context);
    return started.runner;
  };
  const runner = options.runner ? await addRunner(options.runner === true ? {} : options.runner) : null;
  return {
    core,
    storageUrl: `http://127.0.0.1:${port}`,
    consoleUrl: `http://127.0.0.1:${dashPort}`,
    storageApp: app,
    dashUrl: `http://127.0.0.1:${dashPort}/api`,
    scheduler: dash.get(PeriodicScheduler),
    adminKey,
    projector,
    createKey: async (projects, capabilities = []) =>
      (await commands.execute<CreateAccessKeyCommand, { secret: string }>(new CreateAccessKeyCommand(projects, false, 'test', { kind: 'system', id: 'test' }, undefined, capabilities))).secret,
    access: app.get(AccessService),
    runner,
    startRunner: addRunner,
    stopRunner: async (r) => {
      await runners.get(r)?.close();
      runners.delete(r);
    },
    stop: async () => {
      for (const c of runners.values()) await c.close();
      for (const c of contexts.reverse()) await c.close();
      if (core.views.kind === 'mongodb') await core.views.db.db.dropDatabase().catch(() => undefined);
      await core.close();
    },
  };
}

/** HTTP Basic for an API key (empty password). */
export function basic(key: string): string {
  return `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
}

/**
 * Reads every one of `reads` (a path, or whatever `read` takes), stops the projector,
 * rebuilds the views from the log (replay), starts it again and expects the same answers
 * (response texts), every one of them longer than `longerThan` characters (default 0: not
 * empty). Returns the answers.
 */
export async function expectReplayKeepsReads<R>(
  platform: TestPlatform,
  read: (r: R) => Promise<Response | string>,
  reads: R[],
  { longerThan = 0 }: { longerThan?: number } = {},
): Promise<string[]> {
  const readAll = () => Promise.all(reads.map(async (r) => {
    const answer = await read(r);
    return typeof answer === 'string' ? answer : answer.text();
  }));
  const before = await readAll();
  await platform.projector!.stop();
  await platform.projector!.replay(() => undefined);
  await platform.projector!.start();
  const after = await readAll();
  expect(after).toEqual(before);
  expect(before.every((b) => b.length > longerThan)).toBe(true);
  return after;
}
