export * from './domain/access-key';
export * from './ports/access-keys.view';
export * from './adapters/sqlite/access-keys.sqlite';
export * from './events/access-keys.projection';
export * from './commands/create-access-key/create-access-key.command';
export * from './commands/create-access-key/create-access-key.handler';
export * from './access.service';
export * from './access.module';
