export * from './metrics';
export * from './ops-endpoints';
