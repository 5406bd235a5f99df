export * from './dom.types';
export * from './parse-page';
export * from './url';
export * from './text';
