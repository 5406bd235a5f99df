export * from './storage.module';
export * from './domain/job-key';
export * from './domain/record-kinds';
export * from './ports/job-records.view';
export * from './ports/job-metadata.view';
export * from './domain/record-filter';
export * from './ports/job-platform-metadata.port';
