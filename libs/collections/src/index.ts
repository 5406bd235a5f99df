export * from './collections.module';
export * from './domain/collection-record';
export * from './ports/collections.view';
