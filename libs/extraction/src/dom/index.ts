export * from './dom.types';
export * from './parse-page';
export * from './url';
export * from './text';
export * from './class-words';
export * from './breadcrumbs';
export * from './light-dom';
