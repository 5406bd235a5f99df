export * from './domain/render-error';
export * from './domain/target-filter';
export * from './ports/renderer.port';
export * from './adapters/puppeteer/render-pool';
export * from './render.module';
export * from './adapters/puppeteer/process-tree';
