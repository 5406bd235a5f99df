export * from './dom.types';
export * from './pre-parse';
export * from './url';
export * from './text';
export * from './class-words';
export * from './breadcrumbs';
export * from './light-dom';
