import { DynamicModule, INestApplication, LoggerService, LogLevel, Module } from '@nestjs/common';
import { Core, CoreModule, startHttpApp } from '@crawlhub/platform';
import { ExtractionApiModule, extractionProblemFilter } from '@crawlhub/extraction-batches';

@Module({})
export class ExtractAppModule {
  static with(core: Core): DynamicModule {
    return { module: ExtractAppModule, imports: [CoreModule.with(core), ExtractionApiModule] };
  }
}

/** The extraction API (default :8004, EXTRACT_PORT): POST /v1/extract; the work is done by the workers (WORKER_KINDS extract). */
export function startExtractApp(core: Core, logger: LoggerService | LogLevel[] | false): Promise<INestApplication> {
  return startHttpApp(ExtractAppModule.with(core), { api: 'extract', host: core.config.host, port: core.config.ports.extract, errors: extractionProblemFilter(), logger });
}
