export * from './structured-data.types';
export * from './read-structured-data';
export * from './query';
export * from './breadcrumbs';
