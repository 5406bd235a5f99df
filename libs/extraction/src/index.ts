export * from './extraction.types';
export * from './dom';
export * from './structured-data';
export * from './article/extract-article';
export * from './product/extract-product';
export { productRecords, offerPriceData } from './product/structured-product';
export { amountFromData } from './product/price';
export * from './model/logistic';
export * from './model/models';
