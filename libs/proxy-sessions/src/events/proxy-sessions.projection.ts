import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  PROXY_SESSION_CREATED, PROXY_SESSION_DELETED, PROXY_SESSIONS_TOPIC, PROXY_SESSIONS_TOUCHED,
  ProxySessionCreated, ProxySessionDeleted, ProxySessionsTouched, proxySessionEventProblem,
} from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { PROXY_SESSIONS_VIEW, ProxySessionsView } from '../ports/proxy-sessions.view';

/**
 * The single decider of a user's sessions: applies their events in log order. At
 * `created` it forgets the sessions idle for longer than the event's idleMs at the
 * event's time, then accepts the session if the user has fewer active sessions than the
 * event's limit, else records it as refused. A session already stored (the same event
 * applied again) is not decided again.
 */
@AsProjection()
@Injectable()
export class ProxySessionsProjection implements Projection {
  readonly topics = [PROXY_SESSIONS_TOPIC];
  private readonly log = new Logger('ProxySessionsProjection');

  constructor(@Inject(PROXY_SESSIONS_VIEW) private readonly view: ProxySessionsView) {}

  async apply(e: LoggedEvent): Promise<void> {
    const { event } = e;
    const problem = proxySessionEventProblem(event);
    if (problem) {
      this.log.warn(`skipped ${event.type} at ${e.topic}/${e.partition}/${e.offset}: ${problem}`);
      return;
    }
    switch (event.type) {
      case PROXY_SESSION_CREATED: {
        const d = event.data as ProxySessionCreated;
        if (await this.view.stored(d.user, d.id)) return;
        await this.view.purge(e, d.user, d.at - d.idleMs);
        const active = await this.view.countActive(d.user);
        await this.view.insert(e, d.user, { id: d.id, exit: d.exit, lastUsed: d.at, state: active < d.limit ? 'active' : 'refused' });
        return;
      }
      case PROXY_SESSIONS_TOUCHED: {
        const d = event.data as ProxySessionsTouched;
        return this.view.touch(e, d.user, d.lastUsed);
      }
      case PROXY_SESSION_DELETED: {
        const d = event.data as ProxySessionDeleted;
        return this.view.delete(e, d.user, d.id);
      }
    }
  }
}
