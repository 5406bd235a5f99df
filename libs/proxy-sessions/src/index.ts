export * from './proxy-sessions.module';
export * from './ports/proxy-sessions.view';
export * from './domain/last-uses';
export * from './domain/session-id';
export * from './events/proxy-sessions.projection';
export * from './service/proxy-session.service';
export * from './domain/decide-sessions';
export * from './decider/proxy-sessions-decider';
