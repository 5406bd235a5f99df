export * from './extraction.types';
export * from './article/extract-article';
