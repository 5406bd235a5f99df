export * from './jobs.module';
export * from './jobs.views.module';
export * from './ports/jobs.view';
export * from './domain/job';
export * from './domain/job-token';
export * from './domain/decide-jobs';
export * from './commands/request-jobs-change/request-jobs-change.command';
export * from './scheduler/periodic-scheduler';
