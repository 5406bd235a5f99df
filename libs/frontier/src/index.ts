export * from './frontier.module';
export * from './ports/frontier.view';
export * from './domain/batches';
export * from './domain/lease';
export * from './domain/requests';
export * from './domain/decide-frontier';
export * from './decider/frontier-decider';
export * from './queries/frontier-audit/frontier-audit';
