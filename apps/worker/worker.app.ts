import { DynamicModule, INestApplicationContext, LoggerService, LogLevel, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Core, CoreModule } from '@crawlhub/platform';
import { FetchWorker, FetchWorkerModule } from '@crawlhub/fetch';

@Module({})
export class WorkerAppModule {
  static with(core: Core, proxyUrl: string): DynamicModule {
    return { module: WorkerAppModule, imports: [CoreModule.with(core), FetchWorkerModule.register({ proxyUrl })] };
  }
}

/**
 * A worker (WORKER_KINDS: plain fetchers and/or renderers), a member of the workers'
 * consumer groups. `proxyPort` is the port of a proxy running in this process (when
 * PROXY_PORT=0 picked one); otherwise WORKER_PROXY_URL, or 127.0.0.1:PROXY_PORT.
 */
export async function startWorkerApp(core: Core, logger: LoggerService | LogLevel[] | false, proxyPort?: number): Promise<{ context: INestApplicationContext; worker: FetchWorker; proxyUrl: string }> {
  const proxyUrl = core.config.worker.proxyUrl ?? `http://127.0.0.1:${proxyPort ?? core.config.ports.proxy}/`;
  const context = await NestFactory.createApplicationContext(WorkerAppModule.with(core, proxyUrl), { logger });
  return { context, worker: context.get(FetchWorker), proxyUrl };
}
