import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { AccessModule } from '@crawlhub/access';
import { ConfigError, CONFIG_DOCS, CrawlhubConfig, loadConfig, plainText } from '@crawlhub/config';
import { adminKeyFile, Core, CoreModule, ensureAdminKey, nestLogger, openCore, startDraining, startOpsServer } from '@crawlhub/platform';

const HELP = `crawlhub: a self-hostable web-scraping platform (Scrapy Cloud compatible APIs)

Usage: npm start            start every app in one process (data under ./data)
       APP_ROLE=storage,projector npm start   start only some roles

Configuration (environment variables, all optional):
${CONFIG_DOCS.map(([n, d, m]) => `  ${n}\n      default ${plainText(d)}: ${plainText(m)}`).join('\n')}

Operations: npm run crawlhub -- --help   (keys, replay, audit)`;

/** Just enough to run the key commands from the main thread. */
@Module({})
class AdminModule {
  static with(core: Core): DynamicModule {
    return { module: AdminModule, imports: [CoreModule.with(core), AccessModule] };
  }
}

/*
 * Each role's app is imported only when the process runs that role (`await import`): a
 * process of one role of a fleet then loads neither the others' code nor their drivers
 * (the browser's, the extraction engine's), which is most of its start time and memory.
 */
async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(HELP);
    return;
  }
  let config: CrawlhubConfig;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  // Not allowed in NODE_OPTIONS; V8 reads it at each full collection, so setting it before
  // the apps load governs every limit it computes.
  if (config.heapGrowingPercent > 0) setFlagsFromString(`--heap-growing-percent=${config.heapGrowingPercent}`);
  const logger = nestLogger(config);
  const core = await openCore(config);
  const running: { close(): Promise<unknown> }[] = [];
  const urls: string[] = [];
  const projector = config.roles.includes('projector') ? await (await import('../projector/projector.thread')).startProjectorRole(config, core, logger) : null;
  if (config.roles.includes('storage')) {
    const { startStorageApp } = await import('../storage/storage.app');
    const app = await startStorageApp(core, logger);
    running.push(app);
    urls.push(`storage API    http://${config.host}:${config.ports.storage}/`);
  }
  if (config.roles.includes('dash')) {
    const { startDashApp } = await import('../dash/dash.app');
    running.push(await startDashApp(core, logger));
    urls.push(`dash API       http://${config.host}:${config.ports.dash}/api/`);
    urls.push(`web console    http://${config.host}:${config.ports.dash}/ (sign in with an API key)`);
  }
  if (config.roles.includes('runner')) {
    const { startRunner } = await import('../runner/runner.app');
    const { context, runner } = await startRunner(core, logger);
    running.push(context);
    urls.push(`runner         ${runner.id}, ${runner.units} units (jobs reach storage at ${runner.storageUrl})`);
  }
  let proxyPort: number | undefined;
  if (config.roles.includes('proxy')) {
    const { startProxyApp } = await import('../proxy/proxy.app');
    const proxy = await startProxyApp(core, logger);
    proxyPort = proxy.port;
    running.push(proxy);
    urls.push(`proxy          http://${config.host}:${proxy.port}/ (CA certificate: http://${config.host}:${proxy.port}/ca.crt)`);
  }
  if (config.roles.includes('stats')) {
    const { startStatsApp } = await import('../proxy/stats.app');
    running.push(await startStatsApp(core, logger));
    urls.push(`proxy stats    http://${config.host}:${config.ports.stats}/stats`);
  }
  if (config.roles.includes('worker')) {
    const { startWorkerApp } = await import('../worker/worker.app');
    const { context, id, proxyUrl } = await startWorkerApp(core, logger, proxyPort);
    running.push(context);
    urls.push(`worker         ${id} (${config.worker.kinds.join(', ')}; ${config.worker.concurrency} at once of each; through ${proxyUrl})`);
  }
  if (config.roles.includes('fetch')) {
    const { startFetchApp } = await import('../fetch/fetch.app');
    const app = await startFetchApp(core, logger);
    running.push(app);
    urls.push(`fetch API      http://${config.host}:${(app.getHttpServer().address() as { port: number }).port}/fetch/v2`);
  }
  if (config.roles.includes('extract')) {
    const { startExtractApp } = await import('../extract/extract.app');
    const app = await startExtractApp(core, logger);
    running.push(app);
    urls.push(`extraction API http://${config.host}:${(app.getHttpServer().address() as { port: number }).port}/v1/extract`);
  }
  if (config.ops.port !== null) {
    const ops = await startOpsServer(core);
    running.push(ops);
    urls.push(`ops            http://${config.ops.host}:${ops.port}/healthz /readyz /metrics`);
  }

  let createdKey: string | null = null;
  if (projector) {
    const admin = await NestFactory.createApplicationContext(AdminModule.with(core), { logger });
    running.push(admin);
    const { key, created } = await ensureAdminKey(config, admin.get(CommandBus));
    if (created) createdKey = key;
  }
  // Where the admin key is, on every start (a restart is when one has forgotten); the key
  // itself only the once it is created.
  const keyFile = adminKeyFile(config);
  if (config.adminKey) urls.push('admin key      CRAWLHUB_ADMIN_KEY (from the environment)');
  else if (existsSync(keyFile)) urls.push(`admin key      in ${keyFile} (KEY=$(cat ${keyFile}))`);


  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    // Out of the load balancers' rotation first (/readyz fails), still serving meanwhile;
    // then each app stops accepting and finishes what it has in flight.
    startDraining(core);
    if (config.ops.shutdownDrainMs > 0) await new Promise((r) => setTimeout(r, config.ops.shutdownDrainMs));
    for (const app of running.reverse()) await app.close();
    await projector?.stop();
    await core.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // Said only once a signal stops the process in order: a SIGTERM right after "up" must not
  // cut it (and its output) short.
  console.log(`crawlhub is up (event log: ${config.eventLog.kind}, views: ${config.viewStore.kind}, data: ${config.dataDir})`);
  for (const u of urls) console.log(`  ${u}`);
  if (createdKey) console.log(`\nCreated the admin API key (also saved in ${keyFile}):\n  ${createdKey}\n`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
