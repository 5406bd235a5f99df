import { DynamicModule, INestApplicationContext, Logger, LoggerService, LogLevel, Module } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { Core, CoreModule } from '@crawlhub/platform';
import { FetchWorker, FetchWorkerModule, PAGE_RENDERER } from '@crawlhub/fetch';
import { RENDERER, RenderModule } from '@crawlhub/render';

@Module({})
export class WorkerAppModule {
  /** A renderer worker drives the browser render pool (libs/render), its browsers going through the worker's proxy. */
  static with(core: Core, proxyUrl: string): DynamicModule {
    const renderer = core.config.worker.kinds.includes('render') ? { provider: { provide: PAGE_RENDERER, useExisting: RENDERER }, imports: [RenderModule.forRoot(proxyUrl)] } : undefined;
    return { module: WorkerAppModule, imports: [CoreModule.with(core), FetchWorkerModule.register({ proxyUrl, renderer })] };
  }
}

/**
 * A worker (WORKER_KINDS: plain fetchers and/or renderers), a member of the workers'
 * consumer groups. `proxyPort` is the port of a proxy running in this process (when
 * PROXY_PORT=0 picked one); otherwise WORKER_PROXY_URL, or 127.0.0.1:PROXY_PORT.
 */
export async function startWorkerApp(core: Core, logger: LoggerService | LogLevel[] | false, proxyPort?: number): Promise<{ context: INestApplicationContext; worker: FetchWorker; proxyUrl: string }> {
  const proxyUrl = core.config.worker.proxyUrl ?? `http://127.0.0.1:${proxyPort ?? core.config.ports.proxy}/`;
  if (core.config.worker.kinds.includes('render') && !existsSync(core.config.render.chromiumPath)) {
    new Logger('worker').warn(`renders will fail: no browser at ${core.config.render.chromiumPath} (apt-get install chromium-headless-shell, or set CHROMIUM_PATH; WORKER_KINDS=plain for a worker without rendering)`);
  }
  const context = await NestFactory.createApplicationContext(WorkerAppModule.with(core, proxyUrl), { logger });
  return { context, worker: context.get(FetchWorker), proxyUrl };
}
