export * from './addresses';
export * from './web-url';
