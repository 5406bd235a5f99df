export * from './storage.module';
export * from './domain/record-kinds';
export * from './domain/job-metadata-fields';
export * from './ports/job-records.view';
export * from './ports/job-metadata.view';
export * from './ports/job-platform-metadata.port';
export * from './commands/write-job-records/write-job-records.command';
export * from './commands/update-job-metadata/update-job-metadata.command';
export { JobFeeds } from './queries/stream-job-records/job-feeds';
