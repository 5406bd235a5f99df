import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { HttpSupportModule } from '@crawlhub/http';
import { WORKER_PROXY_URL } from '@crawlhub/fetch';
import { ExtractBatchController } from './commands/extract-batch/extract-batch.controller';
import { ExtractBatchHandler } from './commands/extract-batch/extract-batch.handler';
import { ExtractionResults } from './api/extraction-results';
import { QueriesInFlight } from './api/queries-in-flight';
import { ExtractionWorker } from './worker/extraction-worker';

/** The extraction API (:8004): POST /v1/extract. Needs CoreModule. */
@Module({ imports: [CqrsModule, HttpSupportModule], controllers: [ExtractBatchController], providers: [ExtractionResults, QueriesInFlight, ExtractBatchHandler] })
export class ExtractionApiModule {}

/** An extraction worker (WORKER_KINDS `extract`), fetching through the proxy at `proxyUrl`. Needs CoreModule. */
@Module({})
export class ExtractionWorkerModule {
  static register(proxyUrl: string): DynamicModule {
    return { module: ExtractionWorkerModule, providers: [{ provide: WORKER_PROXY_URL, useValue: proxyUrl }, ExtractionWorker], exports: [ExtractionWorker] };
  }
}
