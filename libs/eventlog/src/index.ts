export * from './event-log.port';
export * from './partitioner';
export * from './adapters/sqlite/sqlite-event-log';
