export * from './core';
export * from './http-app';
export * from './admin-key';
export * from './nest-logger';
export * from './supervised-thread';
