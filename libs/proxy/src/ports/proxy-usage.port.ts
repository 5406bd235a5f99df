/** Where every proxied request is accounted (the usage statistics, libs/proxy-stats). */
export const PROXY_USAGE = Symbol('PROXY_USAGE');

export type UsageOutcome = 'clean' | 'failed' | 'ban';

export interface ProxyUsage {
  /** A request of `user` (the API key id) began: counts toward concurrency. */
  started(user: string): void;
  /** It ended: clean = a response delivered without our error header; ban = 503 banned; failed = any other of our errors. */
  finished(o: { user: string; outcome: UsageOutcome; bytes: number; timeMs: number }): void;
}

/** Accounts nothing (until the usage statistics are bound). */
export class NoUsage implements ProxyUsage {
  started(): void {}
  finished(): void {}
}
