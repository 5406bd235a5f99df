import { createEvent, PROXY_SESSION_DECIDED, PROXY_SESSION_DELETED, PROXY_SESSIONS_TOUCHED, ProxySessionDecided } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { decideSessionCreate, ProxySessionsProjection, ProxySessionsView } from '@crawlhub/proxy-sessions';
import { eachViewFixture, FakeProjector, ViewHarness } from './view-fixture';
import { systemStamps } from '../support/stamps';

const T0 = Date.parse('2026-01-05T10:00:00Z');
const IDLE = 60_000;
const U = 'key-0123456789ab';

/**
 * The sessions view: the decider's reads (decided, idle, countActive: the rules of
 * decide-sessions.ts run on them here) and the fold of the facts (decided, touched,
 * deleted), with the decided-through mark written with the fact, a second fact of a
 * request ignored, touches and deletes that come before their session's fact (a log
 * written before decisions were facts) kept, and every event safe to apply again.
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
      projection.apply({ topic: at.topic, partition: at.partition, offset: at.offset, event: createEvent({ type, key: data.user, data, actor: { kind: 'key', id: data.user } }, systemStamps) });
    /** A fact as it is in the log (the request at `requestOffset`). */
    const fact = (id: string, requestOffset: number, o: Partial<ProxySessionDecided> = {}) =>
      event(PROXY_SESSION_DECIDED, { user: U, id, exit: '127.0.0.2', requestOffset, requestedAt: T0, deciderVersion: 1, outcome: 'active', forgotten: [], ...o } as ProxySessionDecided);
    /** A create decided on the view by the decider's rules, and its fact folded (the request taken to be at the fact's offset). */
    const created = (id: string, at: number, o: { user?: string; exit?: string; limit?: number } = {}) => async (pos: LogPosition) => {
      const user = o.user ?? U;
      const request = { user, id, exit: o.exit ?? '127.0.0.2', at, limit: o.limit ?? 2, idleMs: IDLE };
      const decision = await decideSessionCreate(view, request, pos.offset);
      await event(PROXY_SESSION_DECIDED, { user, id, exit: request.exit, requestOffset: pos.offset, requestedAt: at, deciderVersion: 1, ...decision })(pos);
    };
    const touched = (lastUsed: Record<string, number>, user = U) => event(PROXY_SESSIONS_TOUCHED, { user, lastUsed });
    const deleted = (id: string, user = U) => event(PROXY_SESSION_DELETED, { user, id });
    const states = async (user = U) => Object.fromEntries((await view.active(user)).map((s) => [s.id, [s.exit, s.lastUsed]]));

    it('accepts sessions under the limit and refuses one at the limit (recorded, not active)', async () => {
      await p.batch(created('11', T0), created('12', T0 + 1, { exit: '127.0.0.3' }), created('13', T0 + 2));
      expect(await states()).toEqual({ '11': ['127.0.0.2', T0], '12': ['127.0.0.3', T0 + 1] });
      expect(await view.session(U, '13')).toEqual({ id: '13', exit: '127.0.0.2', lastUsed: T0 + 2, state: 'refused' });
      expect(await view.session(U, '99')).toBeNull();
      expect(await view.decidedThrough(0)).toBe(2);
      expect(await view.decidedThrough(1)).toBe(-1);
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
      expect(await view.idle(U, T0 + 5000, 10)).toEqual(['11']);
      expect(await view.countActive(U, T0 + 5000, 99)).toBe(1);
      await p.batch(created('13', T0 + IDLE + 5000));
      expect(Object.keys(await states())).toEqual(['12', '13']);
      expect(await view.session(U, '11')).toBeNull();
    });

    it('names the oldest idle sessions first, at most as many as asked', async () => {
      await p.batch(created('13', T0 + 2, { limit: 9 }), created('11', T0, { limit: 9 }), created('12', T0 + 1, { limit: 9 }));
      expect(await view.idle(U, T0 + 2, 10)).toEqual(['11', '12']);
      expect(await view.idle(U, T0 + 3, 2)).toEqual(['11', '12']);
    });

    it('a touch extends a session\'s life (only forward), so it is not forgotten', async () => {
      await p.batch(created('11', T0), created('12', T0));
      await p.batch(touched({ '11': T0 + 30_000 }), touched({ '11': T0 + 20_000 }));
      await p.batch(created('13', T0 + IDLE + 10_000));
      expect(await states()).toEqual({ '11': ['127.0.0.2', T0 + 30_000], '13': ['127.0.0.2', T0 + IDLE + 10_000] });
    });

    it('a deleted session is no longer active, no longer counts, and a delete of a refused one changes nothing', async () => {
      await p.batch(created('11', T0), created('12', T0), created('13', T0));
      await p.batch(deleted('11'), deleted('13'), deleted('12', 'key-other'));
      expect(Object.keys(await states())).toEqual(['12']);
      expect([(await view.session(U, '11'))?.state, (await view.session(U, '13'))?.state]).toEqual(['deleted', 'refused']);
      await p.batch(created('14', T0 + 1));
      expect(Object.keys(await states())).toEqual(['12', '14']);
    });

    it('keeps the first session of an id: a second create of it is a duplicate and changes nothing', async () => {
      await p.batch(created('11', T0), created('11', T0 + 5, { exit: '127.0.0.4' }));
      expect(await states()).toEqual({ '11': ['127.0.0.2', T0] });
      expect(await view.decided(U, '11')).toBe(true);
    });

    it('folds a decision once: a second fact of a request (at or below the mark) is ignored', async () => {
      await p.batch(fact('11', 5));
      await p.batch(fact('11', 5, { outcome: 'refused', exit: '127.0.0.9' }), fact('12', 3), fact('13', 6, { forgotten: ['11'], outcome: 'refused' }));
      expect(await view.session(U, '11')).toBeNull();
      expect(await view.session(U, '12')).toBeNull();
      expect(await view.session(U, '13')).toMatchObject({ state: 'refused' });
      expect(await view.decidedThrough(0)).toBe(6);
    });

    it('keeps a touch or a delete that came before its session\'s fact (a log written before facts), completed by the fact', async () => {
      await p.batch(touched({ '11': T0 + 900 }), deleted('12'), touched({ '12': T0 + 800 }));
      expect(await states()).toEqual({});
      expect([await view.decided(U, '11'), await view.decided(U, '12'), await view.countActive(U, 0, 0)]).toEqual([false, false, 0]);
      await p.batch(fact('11', 10), fact('12', 11));
      expect(await states()).toEqual({ '11': ['127.0.0.2', T0 + 900] });
      expect(await view.session(U, '12')).toMatchObject({ id: '12', exit: '127.0.0.2', state: 'deleted' });
      // Deleted by the event at offset 1: a request before it (its decision made on these views) still counts it.
      expect([await view.countActive(U, 0, 0), await view.countActive(U, 0, 1)]).toEqual([2, 1]);
    });

    it('applying events again changes nothing (an accepted session stays accepted, a refused one refused)', async () => {
      const applied = await p.batch(created('11', T0), created('12', T0), created('13', T0 + 1), deleted('11'), touched({ '12': T0 + 500 }), created('14', T0 + 2));
      const before = [await states(), await view.session(U, '13'), await view.session(U, '11'), await view.decidedThrough(0)];
      expect(Object.keys(await states())).toEqual(['12', '14']);
      for (let i = 0; i < applied.length; i++) {
        await p.replay(applied.slice(i));
        expect([await states(), await view.session(U, '13'), await view.session(U, '11'), await view.decidedThrough(0)]).toEqual(before);
      }
    });
  });
}
