export * from './domain/render-error';
export * from './domain/target-filter';
export * from './ports/renderer.port';
export * from './pool/render-pool';
export * from './render.module';
export * from './pool/process-tree';
