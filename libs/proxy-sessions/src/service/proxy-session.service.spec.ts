import {
  createEvent, EventEnvelope, ManualClock, NewEvent, PROXY_SESSION_CREATED, PROXY_SESSION_DECIDED, PROXY_SESSIONS_TOUCHED, ProxySessionCreated, SequentialIds,
} from '@crawlhub/contracts';
import { loadConfig } from '@crawlhub/config';
import { LogPosition } from '@crawlhub/eventlog';
import { ProxyError } from '@crawlhub/proxy';
import { EventWriter, SqliteViewDatabase } from '@crawlhub/views';
import { ProxySessionsSqlite } from '../adapters/sqlite/proxy-sessions.sqlite';
import { decideSessionCreate } from '../domain/decide-sessions';
import { ProxySessionsProjection } from '../events/proxy-sessions.projection';
import { ProxySessionService } from './proxy-session.service';

const T0 = Date.parse('2026-01-05T10:00:00Z');

/**
 * An EventWriter whose appends are folded at once by the projection (an in-memory view),
 * with the decider's part played in line: a create request gets its fact, decided by the
 * decider's rules, appended right after it. So a decision is folded before append returns:
 * there is nothing to wait for.
 */
class ApplyingWriter {
  appended: EventEnvelope[] = [];
  private offset = 0;
  readonly ids = new SequentialIds();
  constructor(private readonly projection: ProxySessionsProjection, private readonly view: ProxySessionsSqlite, readonly clock: ManualClock) {}
  createEvent<T>(e: NewEvent<T>): EventEnvelope<T> {
    return createEvent(e, this);
  }
  async waitForDecision(): Promise<void> {}
  async append(topic: string, events: EventEnvelope[]): Promise<LogPosition[]> {
    const positions: LogPosition[] = [];
    for (const event of events) {
      const at = { topic, partition: 0, offset: this.offset++ };
      this.appended.push(event);
      await this.projection.apply({ ...at, event });
      positions.push(at);
    }
    for (const [i, event] of events.entries()) {
      if (event.type !== PROXY_SESSION_CREATED) continue;
      const d = event.data as ProxySessionCreated;
      const decision = await decideSessionCreate(this.view, d, positions[i].offset);
      const fact = this.createEvent({ type: PROXY_SESSION_DECIDED, key: event.key, data: { ...decision, user: d.user, id: d.id, exit: d.exit, requestOffset: positions[i].offset, requestedAt: d.at, deciderVersion: 1 }, actor: event.actor });
      await this.append(topic, [fact]);
    }
    return positions;
  }
  appendAndWait(topic: string, events: EventEnvelope[]): Promise<LogPosition[]> {
    return this.append(topic, events);
  }
}

describe('ProxySessionService', () => {
  let clock: ManualClock;
  let views: SqliteViewDatabase;
  beforeEach(() => {
    clock = new ManualClock(T0);
    views = new SqliteViewDatabase(':memory:');
  });
  afterEach(() => views.close());

  function service(env: Record<string, string> = {}) {
    const view = new ProxySessionsSqlite(views);
    const writer = new ApplyingWriter(new ProxySessionsProjection(view), view, clock);
    const config = loadConfig({ PROXY_SESSION_LIMIT: '2', PROXY_SESSION_IDLE_MS: '1000', ...env });
    return { s: new ProxySessionService(writer as unknown as EventWriter, view, config, clock), writer };
  }

  it('creates sessions up to the limit, then throws user_session_limit; a key sees only its own', async () => {
    const { s } = service();
    const a = await s.create('key-a', '127.0.0.2');
    const b = await s.create('key-a', '127.0.0.3');
    await expect(s.create('key-a', '127.0.0.4')).rejects.toEqual(new ProxyError('user_session_limit'));
    expect(await s.list('key-a')).toEqual({ [a]: '127.0.0.2', [b]: '127.0.0.3' });
    expect([await s.exitOf('key-a', b), await s.exitOf('key-b', b), await s.list('key-b')]).toEqual(['127.0.0.3', null, {}]);
    expect([await s.delete('key-b', a), await s.delete('key-a', a), await s.delete('key-a', a), await s.exitOf('key-a', a)]).toEqual([false, true, false, null]);
  });

  it('remembers uses in memory and appends them as one touched event per key on flush', async () => {
    const { s, writer } = service();
    const a = await s.create('key-a', '127.0.0.2');
    const b = await s.create('key-b', '127.0.0.2');
    writer.appended = [];
    clock.advance(100);
    await s.exitOf('key-a', a);
    clock.advance(100);
    await s.exitOf('key-a', a);
    await s.exitOf('key-b', b);
    expect(writer.appended).toEqual([]);
    await s.flush();
    expect(writer.appended.map((e) => [e.type, e.key, e.data])).toEqual([
      [PROXY_SESSIONS_TOUCHED, 'key-a', { user: 'key-a', lastUsed: { [a]: T0 + 200 } }],
      [PROXY_SESSIONS_TOUCHED, 'key-b', { user: 'key-b', lastUsed: { [b]: T0 + 200 } }],
    ]);
    await s.flush();
    expect(writer.appended).toHaveLength(2);
  });

  it('expires a session idle for longer than PROXY_SESSION_IDLE_MS, counting the uses not sent yet', async () => {
    const { s } = service();
    const a = await s.create('key-a', '127.0.0.2');
    clock.set(T0 + 800);
    expect(await s.exitOf('key-a', a)).toBe('127.0.0.2'); // only in memory
    clock.set(T0 + 1800);
    expect(await s.exitOf('key-a', a)).toBe('127.0.0.2');
    clock.set(T0 + 2801);
    expect(await s.exitOf('key-a', a)).toBeNull();
    expect(await s.list('key-a')).toEqual({});
  });

  it('sends the key\'s unsent uses before a create, so a session in use is not purged to make room', async () => {
    const { s, writer } = service({ PROXY_SESSION_LIMIT: '1' });
    const a = await s.create('key-a', '127.0.0.2');
    clock.set(T0 + 900);
    await s.exitOf('key-a', a);
    clock.set(T0 + 1500); // idle for 1500 ms as far as the log knew before this create
    await expect(s.create('key-a', '127.0.0.3')).rejects.toEqual(new ProxyError('user_session_limit'));
    expect(writer.appended.slice(-3).map((e) => e.type)).toEqual([PROXY_SESSIONS_TOUCHED, PROXY_SESSION_CREATED, PROXY_SESSION_DECIDED]);
    clock.set(T0 + 2000);
    expect(await s.create('key-a', '127.0.0.3')).toMatch(/^[1-9][0-9]{15}$/); // a is idle for 1100 ms now: purged
  });
});
