import { DynamicModule, Module, Provider } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { HttpSupportModule } from '@crawlhub/http';
import { FetchResults } from './api/fetch-results';
import { FetchPageController } from './commands/fetch-page/fetch-page.controller';
import { FetchPageHandler } from './commands/fetch-page/fetch-page.handler';
import { PAGE_RENDERER, RenderingUnavailable } from './ports/page-renderer.port';
import { FetchWorker, WORKER_PROXY_URL } from './worker/fetch-worker';

/** The fetch API (:8003): POST /fetch/v2. Needs CoreModule. */
@Module({ imports: [CqrsModule, HttpSupportModule], controllers: [FetchPageController], providers: [FetchResults, FetchPageHandler] })
export class FetchApiModule {}

export interface FetchWorkerOptions {
  /** The proxy the worker fetches through, `http://host:port`. */
  proxyUrl: string;
  /** Binds PAGE_RENDERER (default: RenderingUnavailable), with the modules it needs. */
  renderer?: { provider: Provider; imports: NonNullable<DynamicModule['imports']> };
}

/** A worker (WORKER_KINDS): takes fetch requests from the log and answers them. Needs CoreModule. */
@Module({})
export class FetchWorkerModule {
  static register(options: FetchWorkerOptions): DynamicModule {
    return {
      module: FetchWorkerModule,
      imports: options.renderer?.imports ?? [],
      providers: [{ provide: WORKER_PROXY_URL, useValue: options.proxyUrl }, options.renderer?.provider ?? { provide: PAGE_RENDERER, useClass: RenderingUnavailable }, FetchWorker],
      exports: [FetchWorker],
    };
  }
}
