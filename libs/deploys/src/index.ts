export * from './ports/blob-store';
export * from './ports/deploys.view';
export * from './domain/deploy';
export * from './domain/stacks';
export * from './running/deployed-jobs';
export * from './deploys.module';
