export * from './console-assets';
export * from './console.controller';
export * from './console.module';
export * from './public-api-forwarder';
