export * from './projection-store.port';
export * from './projection.decorator';
export * from './projector';
export * from './adapters/sqlite/sqlite-view-database';
export * from './adapters/sqlite/sqlite-projection-store';
