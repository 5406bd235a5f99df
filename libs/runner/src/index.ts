export * from './runner.module';
export * from './ports/spider-commands.view';
export * from './domain/spider-command';
export * from './commands/register-spiders/register-spiders.command';
export * from './commands/unregister-spiders/unregister-spiders.command';
export * from './queries/read-spider-commands/read-spider-commands.query';
