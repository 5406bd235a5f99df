import { Inject, Injectable } from '@nestjs/common';
import {
  PROXY_SESSION_DECIDED, PROXY_SESSION_DELETED, PROXY_SESSIONS_TOPIC, PROXY_SESSIONS_TOUCHED, ProxySessionDecided, ProxySessionDeleted, ProxySessionsTouched,
} from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { PROXY_SESSIONS_VIEW, ProxySessionsView } from '../ports/proxy-sessions.view';

/**
 * The sessions view: a plain fold over the facts of the topic (the projector checked each
 * event against the topic's contract before it gets here). A `decided` fact forgets the
 * sessions its decision found idle, writes the session in the state decided and moves the
 * partition's decided-through mark, all with the same checkpoint; a fact for a request at
 * or below the mark (a second fact of a request) is ignored, so a decision takes effect
 * once. Create requests are not applied at all: ProxySessionsDecider decides them and
 * appends the facts. Touches and deletes are facts already, written as they come.
 */
@AsProjection()
@Injectable()
export class ProxySessionsProjection implements Projection {
  readonly topics = [PROXY_SESSIONS_TOPIC];

  constructor(@Inject(PROXY_SESSIONS_VIEW) private readonly view: ProxySessionsView) {}

  async apply(e: LoggedEvent): Promise<void> {
    const { event } = e;
    switch (event.type) {
      case PROXY_SESSION_DECIDED: {
        const d = event.data as ProxySessionDecided;
        if (d.requestOffset <= (await this.view.decidedThrough(e.partition))) return;
        await this.view.forget(e, d.user, d.forgotten);
        if (d.outcome === 'active' || d.outcome === 'refused') await this.view.putDecided(e, d.user, { id: d.id, exit: d.exit, lastUsed: d.requestedAt, state: d.outcome });
        // Last: on MongoDB (no transactions) a caller that sees the mark finds the session written.
        await this.view.markDecided(e, e.partition, d.requestOffset);
        return;
      }
      case PROXY_SESSIONS_TOUCHED: {
        const d = event.data as ProxySessionsTouched;
        return this.view.touch(e, d.user, d.lastUsed);
      }
      case PROXY_SESSION_DELETED: {
        const d = event.data as ProxySessionDeleted;
        return this.view.delete(e, d.user, d.id, event.occurredAt);
      }
    }
  }
}
