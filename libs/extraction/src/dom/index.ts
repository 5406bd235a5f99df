export * from './dom.types';
export * from './pre-parse';
export { WINDOWS_1252_HIGH } from './double-encoding';
export * from './url';
export * from './text';
export * from './class-words';
export * from './breadcrumbs';
export * from './light-dom';
