export * from './config';
export * from './config.module';
export * from './private-targets';
export * from './config-docs';
