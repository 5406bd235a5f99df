import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The correlation id of the work in progress: an HTTP request's (its X-Request-Id, or one
 * made for it), kept across every await of its handling. Events created meanwhile carry it
 * (createEvent), and so do the request's log lines (LOG_FORMAT=json), so one id leads from
 * an access log line to the events in the log (`crawlhub audit`) and back.
 */
const current = new AsyncLocalStorage<string>();

export function withCorrelationId<T>(id: string, work: () => T): T {
  return current.run(id, work);
}

/** The correlation id of the work in progress, if it has one. */
export function currentCorrelationId(): string | undefined {
  return current.getStore();
}
