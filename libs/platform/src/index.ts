export * from './core';
export * from './http-app';
export * from './admin-key';
export * from './nest-logger';
export * from './supervised-thread';
export * from './ops';
export * from './openapi';
export * from './http-ops';
