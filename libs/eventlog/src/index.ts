export * from './event-log.port';
export * from './partitioner';
export * from './adapters/sqlite/sqlite-event-log';
export * from './adapters/kafka/kafka-event-log';
export * from './open-event-log';
export * from './thread-signal';
export * from './namespaced-event-log';
