import { Module } from '@nestjs/common';
import { viewAdapter } from '@crawlhub/views';
import { ProxySessionsMongo } from './adapters/mongodb/proxy-sessions.mongodb';
import { ProxySessionsSqlite } from './adapters/sqlite/proxy-sessions.sqlite';
import { ProxySessionsDecider } from './decider/proxy-sessions-decider';
import { ProxySessionsProjection } from './events/proxy-sessions.projection';
import { PROXY_SESSIONS_VIEW } from './ports/proxy-sessions.view';
import { ProxySessionService } from './service/proxy-session.service';

/** The sessions view on the configured view store. */
const sessionsView = viewAdapter(PROXY_SESSIONS_VIEW, { sqlite: ProxySessionsSqlite, mongodb: ProxySessionsMongo });

/** The sessions view, its projection and its decider; needed by the projector (which runs the decider). */
@Module({
  providers: [sessionsView, ProxySessionsProjection, ProxySessionsDecider],
  exports: [PROXY_SESSIONS_VIEW],
})
export class ProxySessionsViewsModule {}

/**
 * The sessions service the proxy uses (bind it to the proxy's PROXY_SESSIONS port with
 * `sessions: ProxySessionService`). Needs CoreModule (EventWriter, CONFIG, the views).
 */
@Module({
  providers: [sessionsView, ProxySessionService],
  exports: [ProxySessionService],
})
export class ProxySessionServiceModule {}
