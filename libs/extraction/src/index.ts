export * from './extraction.types';
