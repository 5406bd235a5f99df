export * from './domain/extraction-queries';
export * from './domain/query-errors';
export * from './domain/page-text';
export * from './api/extraction-problem';
export * from './commands/extract-batch/extract-batch.command';
export * from './worker/extraction-worker';
export { EXTRACTION_THREAD_LIMITS } from './worker/page-extractor';
export * from './extraction-batches.module';
export * from './domain/extraction-usage';
