export * from './formats';
export * from './credentials';
export * from './python-json';
export * from './storage-http-error';
export * from './request-principal';
export * from './send-stream';
export * from './http-support.module';
export * from './form-body';
