export * from './domain/fetch-params';
export * from './domain/fetch-response';
export * from './ports/page-renderer.port';
export * from './api/fetch-api-error';
export * from './api/fetch-results';
export * from './worker/proxy-fetcher';
export * from './worker/fetch-worker';
export * from './fetch.module';
