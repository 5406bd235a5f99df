export * from './extraction.types';
export * from './dom';
export * from './structured-data';
export * from './article/extract-article';
export * from './product/extract-product';
export * from './model/logistic';
export * from './model/models';
