import { DynamicModule, Module } from '@nestjs/common';
import { HttpSupportModule } from '@crawlhub/http';
import { WORKER_PROXY_URL } from '@crawlhub/fetch';
import { ExtractionController } from './api/extraction.controller';
import { ExtractionResults } from './api/extraction-results';
import { QueriesInFlight } from './api/queries-in-flight';
import { ExtractionWorker } from './worker/extraction-worker';

/** The extraction API (:8004): POST /v1/extract. Needs CoreModule. */
@Module({ imports: [HttpSupportModule], controllers: [ExtractionController], providers: [ExtractionResults, QueriesInFlight] })
export class ExtractionApiModule {}

/** An extraction worker (WORKER_KINDS `extract`), fetching through the proxy at `proxyUrl`. Needs CoreModule. */
@Module({})
export class ExtractionWorkerModule {
  static register(proxyUrl: string): DynamicModule {
    return { module: ExtractionWorkerModule, providers: [{ provide: WORKER_PROXY_URL, useValue: proxyUrl }, ExtractionWorker], exports: [ExtractionWorker] };
  }
}
