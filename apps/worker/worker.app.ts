import { DynamicModule, INestApplicationContext, Logger, LoggerService, LogLevel, Module } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { NestFactory } from '@nestjs/core';
import { Core, CoreModule } from '@crawlhub/platform';
import { FetchWorkerModule, PAGE_RENDERER } from '@crawlhub/fetch';
import { ExtractionWorkerModule } from '@crawlhub/extraction-batches';
import { RENDERER, RenderModule } from '@crawlhub/render';

@Module({})
export class WorkerAppModule {
  /**
   * Fetch workers for `plain` and `render`, an extraction worker for `extract`. A renderer
   * drives the browser render pool (libs/render), its browsers going through the worker's proxy.
   */
  static with(core: Core, proxyUrl: string): DynamicModule {
    const kinds = core.config.worker.kinds;
    const renderer = kinds.includes('render') ? { provider: { provide: PAGE_RENDERER, useExisting: RENDERER }, imports: [RenderModule.forRoot(proxyUrl)] } : undefined;
    const workers = [
      ...(kinds.includes('plain') || kinds.includes('render') ? [FetchWorkerModule.register({ proxyUrl, renderer })] : []),
      ...(kinds.includes('extract') ? [ExtractionWorkerModule.register(proxyUrl)] : []),
    ];
    return { module: WorkerAppModule, imports: [CoreModule.with(core), ...workers] };
  }
}

/**
 * A worker (WORKER_KINDS: plain fetchers, renderers, extraction), a member of the workers'
 * consumer groups. `proxyPort` is the port of a proxy running in this process (when
 * PROXY_PORT=0 picked one); otherwise WORKER_PROXY_URL, or 127.0.0.1:PROXY_PORT.
 */
export async function startWorkerApp(core: Core, logger: LoggerService | LogLevel[] | false, proxyPort?: number): Promise<{ context: INestApplicationContext; id: string; proxyUrl: string }> {
  const proxyUrl = core.config.worker.proxyUrl ?? `http://127.0.0.1:${proxyPort ?? core.config.ports.proxy}/`;
  if (core.config.worker.kinds.includes('render') && !existsSync(core.config.render.chromiumPath)) {
    new Logger('worker').warn(`renders will fail: no browser at ${core.config.render.chromiumPath} (apt-get install chromium-headless-shell, or set CHROMIUM_PATH; WORKER_KINDS=plain for a worker without rendering)`);
  }
  const context = await NestFactory.createApplicationContext(WorkerAppModule.with(core, proxyUrl), { logger });
  return { context, id: `${hostname()}:${process.pid}`, proxyUrl };
}
