export * from './activity.module';
export * from './ports/activity.view';
export * from './events/record-activity';
