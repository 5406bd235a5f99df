import { createEvent, PROXY_SESSION_CREATED, PROXY_SESSION_DELETED, PROXY_SESSIONS_TOUCHED } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { ProxySessionsProjection, ProxySessionsView } from '@crawlhub/proxy-sessions';
import { eachViewFixture, FakeProjector, ViewHarness } from './view-fixture';

const T0 = Date.parse('2026-01-05T10:00:00Z');
const IDLE = 60_000;
const U = 'key-0123456789ab';

/**
 * The sessions view, driven through its projection (the decisions at `created` are part
 * of what the view must keep: the limit, the purge of idle sessions, first write wins).
 */
export function proxySessionsViewContract(name: string, harness: ViewHarness<ProxySessionsView>): void {
  describe(`ProxySessionsView contract: ${name}`, () => {
    let view: ProxySessionsView;
    let p: FakeProjector;
    let projection: ProxySessionsProjection;
    eachViewFixture(harness, (fixture, projector) => {
      view = fixture.view;
      p = projector;
      projection = new ProxySessionsProjection(view);
    });

    const event = <D extends { user: string }>(type: string, data: D) => (at: LogPosition) =>
      projection.apply({ topic: at.topic, partition: at.partition, offset: at.offset, event: createEvent({ type, key: data.user, data, actor: { kind: 'key', id: data.user } }) });
    const created = (id: string, at: number, o: { user?: string; exit?: string; limit?: number } = {}) =>
      event(PROXY_SESSION_CREATED, { user: o.user ?? U, id, exit: o.exit ?? '127.0.0.2', at, limit: o.limit ?? 2, idleMs: IDLE });
    const touched = (lastUsed: Record<string, number>, user = U) => event(PROXY_SESSIONS_TOUCHED, { user, lastUsed });
    const deleted = (id: string, user = U) => event(PROXY_SESSION_DELETED, { user, id });
    const states = async (user = U) => Object.fromEntries((await view.active(user)).map((s) => [s.id, [s.exit, s.lastUsed]]));

    it('accepts sessions under the limit and refuses one at the limit (recorded, not active)', async () => {
      await p.batch(created('11', T0), created('12', T0 + 1, { exit: '127.0.0.3' }), created('13', T0 + 2));
      expect(await states()).toEqual({ '11': ['127.0.0.2', T0], '12': ['127.0.0.3', T0 + 1] });
      expect(await view.session(U, '13')).toEqual({ id: '13', exit: '127.0.0.2', lastUsed: T0 + 2, state: 'refused' });
      expect(await view.session(U, '99')).toBeNull();
    });

    it('counts each user on their own, and a user never reads another user\'s sessions', async () => {
      await p.batch(created('11', T0), created('12', T0), created('21', T0, { user: 'key-other' }), created('22', T0, { user: 'key-other' }));
      expect(Object.keys(await states())).toEqual(['11', '12']);
      expect(Object.keys(await states('key-other'))).toEqual(['21', '22']);
      expect(await view.session('key-other', '11')).toBeNull();
    });

    it('forgets sessions idle for longer than idleMs at a create, so they no longer count', async () => {
      await p.batch(created('11', T0), created('12', T0 + 10_000));
      // At T0 + IDLE + 5000 session 11 (idle for IDLE + 5000) goes; 12 (idle for IDLE - 5000) stays.
      await p.batch(created('13', T0 + IDLE + 5000));
      expect(Object.keys(await states())).toEqual(['12', '13']);
      expect(await view.session(U, '11')).toBeNull();
    });

    it('a touch extends a session\'s life (only forward), so it is not purged', async () => {
      await p.batch(created('11', T0), created('12', T0));
      await p.batch(touched({ '11': T0 + 30_000 }), touched({ '11': T0 + 20_000, '77': T0 }));
      await p.batch(created('13', T0 + IDLE + 10_000));
      expect(await states()).toEqual({ '11': ['127.0.0.2', T0 + 30_000], '13': ['127.0.0.2', T0 + IDLE + 10_000] });
    });

    it('a deleted session is no longer active, no longer counts, and a delete of an unknown id changes nothing', async () => {
      await p.batch(created('11', T0), created('12', T0));
      await p.batch(deleted('11'), deleted('404'), deleted('12', 'key-other'));
      expect(Object.keys(await states())).toEqual(['12']);
      expect((await view.session(U, '11'))?.state).toBe('deleted');
      await p.batch(created('13', T0 + 1));
      expect(Object.keys(await states())).toEqual(['12', '13']);
    });

    it('keeps the first session of an id: a second create of it changes nothing', async () => {
      await p.batch(created('11', T0), created('11', T0 + 5, { exit: '127.0.0.4' }));
      expect(await states()).toEqual({ '11': ['127.0.0.2', T0] });
    });

    it('applying events again changes nothing (an accepted session stays accepted, a refused one refused)', async () => {
      const applied = await p.batch(created('11', T0), created('12', T0), created('13', T0 + 1), deleted('11'), touched({ '12': T0 + 500 }), created('14', T0 + 2));
      const before = [await states(), await view.session(U, '13'), await view.session(U, '11')];
      expect(Object.keys(await states())).toEqual(['12', '14']);
      for (let i = 0; i < applied.length; i++) {
        await p.replay(applied.slice(i));
        expect([await states(), await view.session(U, '13'), await view.session(U, '11')]).toEqual(before);
      }
    });

    it('skips malformed events', async () => {
      await p.batch(event(PROXY_SESSION_CREATED, { user: U, id: 'not-digits', exit: 'x', at: T0, limit: 5, idleMs: IDLE }));
      expect(await states()).toEqual({});
    });
  });
}
