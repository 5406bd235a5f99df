export * from './comments.module';
export * from './domain/comment';
export * from './ports/comments.view';
