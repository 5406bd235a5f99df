import { EventEnvelope, PROXY_SESSION_CREATED, PROXY_SESSIONS_TOUCHED } from '@crawlhub/contracts';
import { loadConfig } from '@crawlhub/config';
import { LogPosition } from '@crawlhub/eventlog';
import { ProxyError } from '@crawlhub/proxy';
import { EventWriter, SqliteViewDatabase } from '@crawlhub/views';
import { ProxySessionsSqlite } from '../adapters/sqlite/proxy-sessions.sqlite';
import { ProxySessionsProjection } from '../events/proxy-sessions.projection';
import { ProxySessionService } from './proxy-session.service';

const T0 = Date.parse('2026-01-05T10:00:00Z');

/** An EventWriter whose appends are applied at once by the projection (an in-memory view). */
class ApplyingWriter {
  appended: EventEnvelope[] = [];
  private offset = 0;
  constructor(private readonly projection: ProxySessionsProjection) {}
  async append(topic: string, events: EventEnvelope[]): Promise<LogPosition[]> {
    const positions: LogPosition[] = [];
    for (const event of events) {
      const at = { topic, partition: 0, offset: this.offset++ };
      this.appended.push(event);
      await this.projection.apply({ ...at, event });
      positions.push(at);
    }
    return positions;
  }
  appendAndWait(topic: string, events: EventEnvelope[]): Promise<LogPosition[]> {
    return this.append(topic, events);
  }
}

describe('ProxySessionService', () => {
  let now = T0;
  let views: SqliteViewDatabase;
  beforeEach(() => {
    now = T0;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    views = new SqliteViewDatabase(':memory:');
  });
  afterEach(() => {
    jest.restoreAllMocks();
    views.close();
  });

  function service(env: Record<string, string> = {}) {
    const writer = new ApplyingWriter(new ProxySessionsProjection(new ProxySessionsSqlite(views)));
    const config = loadConfig({ PROXY_SESSION_LIMIT: '2', PROXY_SESSION_IDLE_MS: '1000', ...env });
    return { s: new ProxySessionService(writer as unknown as EventWriter, new ProxySessionsSqlite(views), config), writer };
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
    now += 100;
    await s.exitOf('key-a', a);
    now += 100;
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
    now = T0 + 800;
    expect(await s.exitOf('key-a', a)).toBe('127.0.0.2'); // only in memory
    now = T0 + 1800;
    expect(await s.exitOf('key-a', a)).toBe('127.0.0.2');
    now = T0 + 2801;
    expect(await s.exitOf('key-a', a)).toBeNull();
    expect(await s.list('key-a')).toEqual({});
  });

  it('sends the key\'s unsent uses before a create, so a session in use is not purged to make room', async () => {
    const { s, writer } = service({ PROXY_SESSION_LIMIT: '1' });
    const a = await s.create('key-a', '127.0.0.2');
    now = T0 + 900;
    await s.exitOf('key-a', a);
    now = T0 + 1500; // idle for 1500 ms as far as the log knew before this create
    await expect(s.create('key-a', '127.0.0.3')).rejects.toEqual(new ProxyError('user_session_limit'));
    expect(writer.appended.slice(-2).map((e) => e.type)).toEqual([PROXY_SESSIONS_TOUCHED, PROXY_SESSION_CREATED]);
    now = T0 + 2000;
    expect(await s.create('key-a', '127.0.0.3')).toMatch(/^[1-9][0-9]{15}$/); // a is idle for 1100 ms now: purged
  });
});
