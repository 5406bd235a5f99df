import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import {
  Clock, CLOCK, EventEnvelope, PROXY_SESSION_CREATED, PROXY_SESSION_DELETED, PROXY_SESSIONS_TOPIC, PROXY_SESSIONS_TOUCHED,
  ProxySessionCreated, ProxySessionDeleted, ProxySessionsTouched,
} from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { ProxyError, ProxySessions } from '@crawlhub/proxy';
import { EventWriter } from '@crawlhub/views';
import { expired, LastUses } from '../domain/last-uses';
import { newSessionId } from '../domain/session-id';
import { PROXY_SESSIONS_VIEW, ProxySessionsView, StoredSession } from '../ports/proxy-sessions.view';

/**
 * The proxy's sessions (bound to the proxy's PROXY_SESSIONS port), event-sourced so that
 * every proxy process shares them. A create appends its request and waits until the views
 * have folded the decider's fact (ProxySessionsDecider decides the limit); a delete is
 * appended and waited for; a use reads the view (a delete through another process
 * is seen at once) and is only remembered here: every PROXY_SESSION_TOUCH_MS, at
 * shutdown, and before a create of the same user, the last uses go to the log as one
 * `touched` event per user. Expiry is judged with the newest last use known (the view's
 * or this process's).
 */
@Injectable()
export class ProxySessionService implements ProxySessions, OnModuleInit, OnModuleDestroy {
  private readonly log = new Logger('ProxySessions');
  private readonly lastUses = new LastUses();
  private stopFlushing: (() => void) | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly writer: EventWriter,
    @Inject(PROXY_SESSIONS_VIEW) private readonly view: ProxySessionsView,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private get idleMs(): number {
    return this.config.proxySessions.idleMs;
  }

  async create(user: string, exitId: string): Promise<string> {
    let id = newSessionId(this.writer.ids);
    while (await this.view.session(user, id)) id = newSessionId(this.writer.ids);
    const now = this.clock.now();
    const { limit, idleMs } = this.config.proxySessions;
    // This process's unsent uses of the user go first: the limit is decided with them.
    const touched = this.lastUses.takeUser(user);
    const events: EventEnvelope[] = touched ? [this.touchedEvent(user, touched)] : [];
    events.push(this.writer.createEvent<ProxySessionCreated>({ type: PROXY_SESSION_CREATED, key: user, data: { user, id, exit: exitId, at: now, limit, idleMs }, actor: { kind: 'key', id: user } }));
    const positions = await this.writer.append(PROXY_SESSIONS_TOPIC, events).catch((e: unknown) => {
      if (touched) this.lastUses.restore(user, touched);
      throw e;
    });
    await this.writer.waitForDecision(this.view, positions[positions.length - 1]);
    const session = await this.view.session(user, id);
    if (session?.state === 'active') return id;
    if (session?.state === 'refused') throw new ProxyError('user_session_limit');
    throw new Error(`proxy session ${id} of ${user} could not be decided (its proxy-sessions.decided fact says why; see the projector's log)`);
  }

  async exitOf(user: string, id: string): Promise<string | null> {
    const now = this.clock.now();
    const session = await this.usable(user, id, now);
    if (!session) return null;
    this.lastUses.used(user, id, now);
    return session.exit;
  }

  async list(user: string): Promise<Record<string, string>> {
    const now = this.clock.now();
    const sessions = (await this.view.active(user)).filter((s) => !this.expired(user, s, now));
    return Object.fromEntries(sessions.map((s) => [s.id, s.exit]));
  }

  async delete(user: string, id: string): Promise<boolean> {
    if (!(await this.usable(user, id, this.clock.now()))) return false;
    this.lastUses.forget(user, id);
    await this.writer.appendAndWait(PROXY_SESSIONS_TOPIC, [
      this.writer.createEvent<ProxySessionDeleted>({ type: PROXY_SESSION_DELETED, key: user, data: { user, id }, actor: { kind: 'key', id: user } }),
    ]);
    return true;
  }

  /** Appends the unsent last uses, one `touched` event per user; a failed flush keeps them for the next one. */
  flush(): Promise<void> {
    const run = this.flushing.catch(() => undefined).then(() => this.flushNow());
    this.flushing = run;
    return run;
  }

  private async flushNow(): Promise<void> {
    const taken = this.lastUses.takeAll();
    this.lastUses.prune(this.clock.now() - this.idleMs);
    if (taken.size === 0) return;
    try {
      await this.writer.append(PROXY_SESSIONS_TOPIC, [...taken].map(([user, uses]) => this.touchedEvent(user, uses)));
    } catch (e) {
      for (const [user, uses] of taken) this.lastUses.restore(user, uses);
      throw e;
    }
  }

  private touchedEvent(user: string, lastUsed: Record<string, number>): EventEnvelope {
    return this.writer.createEvent<ProxySessionsTouched>({ type: PROXY_SESSIONS_TOUCHED, key: user, data: { user, lastUsed }, actor: { kind: 'system', id: 'proxy' } });
  }

  /** The user's active, unexpired session with this id, or null. */
  private async usable(user: string, id: string, now: number): Promise<StoredSession | null> {
    const session = await this.view.session(user, id);
    return session && session.state === 'active' && !this.expired(user, session, now) ? session : null;
  }

  private expired(user: string, s: StoredSession, now: number): boolean {
    return expired(Math.max(s.lastUsed, this.lastUses.of(user, s.id)), this.idleMs, now);
  }

  onModuleInit(): void {
    this.stopFlushing = this.clock.every(this.config.proxySessions.touchMs, () => {
      this.flush().catch((e) => this.log.warn(`session touches not flushed, kept for the next flush: ${e instanceof Error ? e.message : e}`));
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.stopFlushing?.();
    await this.flush().catch((e) => this.log.error(`session touches lost at shutdown: ${e instanceof Error ? e.message : e}`));
  }
}
