export * from './jobs.module';
export * from './jobs.views.module';
export * from './ports/jobs.view';
export * from './domain/job';
export * from './domain/job-token';
export * from './scheduler/periodic-scheduler';
