import {
  createEvent, FRONTIER_BATCHES_DELETED, FRONTIER_BATCHES_LEASED, FRONTIER_DECIDED, FRONTIER_REQUESTS_ADDED, FRONTIER_SLOT_DELETED, FrontierBatchesLeased,
  FrontierDecided, frontierSlotKey,
} from '@crawlhub/contracts';
import { LoggedEvent, LogPosition } from '@crawlhub/eventlog';
import { batchId, decideFrontier, FRONTIER_DECIDER_VERSION, FrontierView, planBatches, QueuedRequest, requestLine, SlotRef } from '@crawlhub/frontier';
import { FrontierProjection } from '../../libs/frontier/src/events/frontier.projection';
import { eachViewFixture, FakeProjector, ViewFixture, ViewHarness } from './view-fixture';
import { stampsAt, systemStamps } from '../support/stamps';

const S1: SlotRef = { project: 1, frontier: 'f1', slot: 'example.com' };
const S2: SlotRef = { project: 1, frontier: 'f1', slot: 'other.org' };
const S3: SlotRef = { project: 1, frontier: 'f0', slot: 'x' };
const OTHER_PROJECT: SlotRef = { project: 12, frontier: 'f1', slot: 'example.com' };

const fps = (...names: string[]) => names.map((fp) => ({ fp, fdata: null }));
/** Adds fingerprints, for writes whose answer the test does not need. */
const addFps = (view: FrontierView, slot: SlotRef, ...names: string[]) => async (at: LogPosition) => void (await view.addFingerprints(at, slot, fps(...names)));
const req = (fp: string, p = 0, qdata: unknown = null): QueuedRequest => ({ fp, p, qdata, fdata: null });

/**
 * The frontier view: fingerprints, batches, leases and outcomes, at the adapter level and
 * through the decisions (decideFrontier on the view, as the decider reads it) and the fold
 * of their facts (the projection), fed by a fake partition of the `frontier` topic.
 */
export function frontierViewContract(name: string, harness: ViewHarness<FrontierView>): void {
  describe(`FrontierView contract: ${name}`, () => {
    let f: ViewFixture<FrontierView>;
    let view: FrontierView;
    let p: FakeProjector;
    eachViewFixture(harness, (fixture, projector) => ((f = fixture), (view = fixture.view), (p = projector)));

    /** Events of the `frontier` topic on their own partition (1), applied by the projection through the store. */
    let next = 0;
    beforeEach(() => (next = 0));
    const event = (type: string, slot: SlotRef, data: object, lines?: string[], at = 1_700_000_000_000): LoggedEvent => ({
      topic: 'frontier-contract',
      partition: 1,
      offset: next++,
      event: createEvent({ type, key: frontierSlotKey(slot.project, slot.frontier, slot.slot), data: { ...slot, ...data }, lines, actor: { kind: 'system', id: 'contract' } }, stampsAt(at)),
    });
    const added = (slot: SlotRef, requests: object[], requestId = `r${next}`) => event(FRONTIER_REQUESTS_ADDED, slot, { requestId }, requests.map((r, i) => requestLine(r, i + 1)));
    /** Facts follow their requests in the partition: here at offsets of their own, above every request's. */
    let nextFact = 0;
    beforeEach(() => (nextFact = 1_000_000));
    /** The decider's fact of a request, decided on the view as it is. */
    const decide = async (r: LoggedEvent): Promise<LoggedEvent> => {
      const { decision, lines } = await decideFrontier(view, { type: r.event.type, data: r.event.data, lines: r.event.lines ?? [], offset: r.offset, at: r.event.occurredAt });
      const d = r.event.data as FrontierDecided;
      const data: FrontierDecided = {
        project: d.project, frontier: d.frontier, slot: d.slot, requestId: d.requestId ?? null, requestOffset: r.offset, requestedAt: r.event.occurredAt, deciderVersion: FRONTIER_DECIDER_VERSION, decision,
      };
      return { topic: 'frontier-contract', partition: 1, offset: nextFact++, event: createEvent({ type: FRONTIER_DECIDED, key: r.event.key, data, lines, actor: r.event.actor, causationId: r.event.id }, systemStamps) };
    };
    const fold = (facts: LoggedEvent[]) => {
      const projection = new FrontierProjection(view);
      return f.store.applyBatch('frontier-contract', 1, facts, (e) => projection.apply(e));
    };
    /** What the decider does with each request, in order: decide on the view, append the fact, fold it. Returns the facts. */
    const apply = async (...requests: LoggedEvent[]): Promise<LoggedEvent[]> => {
      const facts: LoggedEvent[] = [];
      for (const r of requests) {
        const fact = await decide(r);
        await fold([fact]);
        facts.push(fact);
      }
      return facts;
    };
    const all = async (slot: SlotRef) => view.batches(slot, {}, 100_000);

    it('has nothing for unknown slots, frontiers and requests', async () => {
      expect(await view.batches(S1, {}, 10)).toEqual([]);
      expect(await view.batchesById(S1, ['x'])).toEqual([]);
      expect(await view.fingerprints(S1, {}, 10)).toEqual([]);
      expect(await view.countRequests(S1, undefined, 10)).toEqual({ count: 0, next: null });
      expect(await view.frontiers(1)).toEqual([]);
      expect(await view.slots(1, 'f1')).toEqual([]);
      expect(await view.outcome('nope')).toBeNull();
      expect(await view.leaseCandidates(S1, {}, 10)).toEqual([]);
      expect(await view.knownFingerprints(S1, ['a'])).toEqual([false]);
      expect(await view.decidedThrough(1)).toBe(-1);
      expect(await view.builtBeforeFacts()).toBe(false);
    });

    it('keeps a decided-through mark per partition that never moves back', async () => {
      await p.batch((at) => view.markDecided(at, 3, 7));
      await p.batch((at) => view.markDecided(at, 3, 5), (at) => view.markDecided(at, 4, 0));
      expect(await view.decidedThrough(3)).toBe(7);
      expect(await view.decidedThrough(4)).toBe(0);
      expect(await view.decidedThrough(5)).toBe(-1);
    });

    it('tells new fingerprints from known ones per slot, keeps the first fdata, and lists slots and frontiers', async () => {
      await p.batch((at) => view.addFingerprints(at, S1, [{ fp: 'a', fdata: '{"v":1}' }, { fp: 'b', fdata: null }]));
      expect(await view.knownFingerprints(S1, ['b', 'a', 'c'])).toEqual([true, true, false]);
      await p.batch((at) => view.addFingerprints(at, S1, [{ fp: 'b', fdata: null }, { fp: 'a', fdata: '"new"' }, { fp: 'c', fdata: '[1]' }]));
      await p.batch(addFps(view, S2, 'a'), addFps(view, S3, 'a'), addFps(view, OTHER_PROJECT, 'z'));
      expect(await view.knownFingerprints(S1, ['c', 'z'])).toEqual([true, false]);
      expect(await view.knownFingerprints(OTHER_PROJECT, ['z', 'a'])).toEqual([true, false]);
      expect(await view.fingerprints(S1, {}, 10)).toEqual([{ fp: 'a', fdata: '{"v":1}' }, { fp: 'b', fdata: null }, { fp: 'c', fdata: '[1]' }]);
      expect(await view.fingerprints(S2, {}, 10)).toEqual([{ fp: 'a', fdata: null }]);
      expect(await view.frontiers(1)).toEqual(['f0', 'f1']);
      expect(await view.slots(1, 'f1')).toEqual(['example.com', 'other.org']);
      expect(await view.frontiers(12)).toEqual(['f1']);
      expect(await view.frontiers(2)).toEqual([]);
    });

    it('reads fingerprints in byte order with from, after and limit', async () => {
      const names = ['my_key_10', 'my_key_2', 'my_key_1', 'B', 'a', 'é', 'z', ''.padEnd(3, 'y')];
      await p.batch(addFps(view, S1, ...names));
      const sorted = [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
      const got = async (range: { from?: string; after?: string }, limit = 100) => (await view.fingerprints(S1, range, limit)).map((x) => x.fp);
      expect(await got({})).toEqual(sorted);
      expect(await got({ from: 'my_key_1' })).toEqual(sorted.slice(sorted.indexOf('my_key_1')));
      expect(await got({ after: 'my_key_1' })).toEqual(sorted.slice(sorted.indexOf('my_key_1') + 1));
      expect(await got({ from: 'my_key_1' }, 2)).toEqual(['my_key_1', 'my_key_10']);
    });

    it('keeps batches in id order, reads them by range and by id, counts requests with a scan budget', async () => {
      const b1 = planBatches(5, [req('a', 1), req('b', 0, { q: 'é' })]);
      const b2 = planBatches(9, Array.from({ length: 130 }, (_, i) => req(`n${i}`)));
      await p.batch((at) => view.putBatches(at, S1, b1), (at) => view.putBatches(at, S1, b2), (at) => view.putBatches(at, S2, planBatches(11, [req('other')])));
      const ids = [b1[1].id, b2[0].id, b2[1].id, b1[0].id];
      expect((await all(S1)).map((b) => b.id)).toEqual(ids);
      expect(await view.batches(S1, {}, 1)).toEqual([{ id: b1[1].id, count: 1, requests: '[["b",{"q":"é"}]]', leasedUntil: 0 }]);
      expect((await view.batches(S1, { from: ids[1] }, 10)).map((b) => b.id)).toEqual(ids.slice(1));
      expect((await view.batches(S1, { after: ids[1] }, 2)).map((b) => b.id)).toEqual(ids.slice(2));
      expect((await view.batchesById(S1, [ids[3], 'unknown', ids[0]])).map((b) => b.id)).toEqual([ids[3], ids[0]]);
      expect(await view.countRequests(S1, undefined, 10)).toEqual({ count: 1 + 100 + 30 + 1, next: null });
      expect(await view.countRequests(S1, undefined, 2)).toEqual({ count: 101, next: ids[2] });
      expect(await view.countRequests(S1, ids[2], 2)).toEqual({ count: 31, next: null });
    });

    it('deletes listed batches only, ignores unknown ids, and deletes whole slots', async () => {
      const batches = planBatches(3, [req('a'), req('b', 1), req('c', 2)]);
      await p.batch(addFps(view, S1, 'a', 'b', 'c'), (at) => view.putBatches(at, S1, batches));
      await p.batch(addFps(view, S2, 'x'), (at) => view.putBatches(at, S2, planBatches(4, [req('x')])));
      await p.batch((at) => view.deleteBatches(at, S1, [batches[1].id, 'unknown', batchId(0, 99, 0)]));
      expect((await all(S1)).map((b) => b.id)).toEqual([batches[0].id, batches[2].id]);
      expect(await view.slots(1, 'f1')).toEqual(['example.com', 'other.org']);
      await p.batch((at) => view.deleteSlot(at, S1));
      expect(await all(S1)).toEqual([]);
      expect(await view.fingerprints(S1, {}, 10)).toEqual([]);
      expect(await view.slots(1, 'f1')).toEqual(['other.org']);
      expect((await all(S2)).length).toBe(1);
      await p.batch((at) => view.deleteSlot(at, S2));
      expect(await view.frontiers(1)).toEqual([]);
      await p.batch((at) => view.deleteSlot(at, S2));
    });

    it('records leases and outcomes; the first outcome wins; old outcomes are pruned', async () => {
      const batches = planBatches(3, Array.from({ length: 250 }, (_, i) => req(`l${i}`)));
      await p.batch((at) => view.putBatches(at, S1, batches));
      await p.batch((at) => view.lease(at, S1, [batches[0].id, batches[2].id], 5_000));
      expect(await view.leaseCandidates(S1, {}, 10)).toEqual([
        { id: batches[0].id, count: 100, leasedUntil: 5_000 },
        { id: batches[1].id, count: 100, leasedUntil: 0 },
        { id: batches[2].id, count: 50, leasedUntil: 5_000 },
      ]);
      expect((await view.leaseCandidates(S1, { after: batches[0].id }, 1)).map((b) => b.id)).toEqual([batches[1].id]);
      expect((await all(S1)).map((b) => b.leasedUntil)).toEqual([5_000, 0, 5_000]);
      await p.batch((at) => view.saveOutcome(at, 'old', 1_000, { newcount: 3 }), (at) => view.saveOutcome(at, 'new', 9_000, { leased: ['x'] }));
      await p.batch((at) => view.saveOutcome(at, 'old', 1_000, { newcount: 99 }));
      expect(await view.outcome('old')).toEqual({ newcount: 3 });
      expect(await view.outcome('new')).toEqual({ leased: ['x'] });
      await p.batch((at) => view.pruneOutcomes(at, 5_000));
      expect(await view.outcome('old')).toBeNull();
      expect(await view.outcome('new')).toEqual({ leased: ['x'] });
    });

    describe('through the decisions and the fold of their facts', () => {
      it('decides newcount, batches (by p, at most 100) and ids from the event offset', async () => {
        const e1 = added(S1, [...Array.from({ length: 150 }, (_, i) => ({ fp: `u${i}` })), { fp: 'u0', p: 3 }, { fp: 'hi', p: 1, qdata: { d: 1 }, fdata: 'F' }], 'req-1');
        const e2 = added(S1, [{ fp: 'u1' }, { fp: 'u200' }], 'req-2');
        await apply(e1, e2);
        expect(await view.outcome('req-1')).toEqual({ newcount: 151 });
        expect(await view.outcome('req-2')).toEqual({ newcount: 1 });
        const batches = await all(S1);
        expect(batches.map((b) => [b.id, b.count])).toEqual([
          [batchId(0, e1.offset, 0), 100],
          [batchId(0, e1.offset, 1), 50],
          [batchId(0, e2.offset, 0), 1],
          [batchId(1, e1.offset, 2), 1],
        ]);
        expect(JSON.parse(batches[3].requests)).toEqual([['hi', { d: 1 }]]);
        expect(await view.fingerprints(S1, { from: 'hi' }, 1)).toEqual([{ fp: 'hi', fdata: '"F"' }]);
      });

      it('leases batches whose lease expired at the event time, in id order, until mincount; records the ids', async () => {
        await apply(added(S1, Array.from({ length: 350 }, (_, i) => ({ fp: `x${i}` }))));
        const ids = (await all(S1)).map((b) => b.id);
        const lease = (requestId: string, at: number, mincount: number, start: string | null = null) =>
          event(FRONTIER_BATCHES_LEASED, S1, { requestId, mincount, leaseMs: 1_000, start } satisfies Omit<FrontierBatchesLeased, keyof SlotRef>, undefined, at);
        await apply(lease('l1', 10_000, 150), lease('l2', 10_500, 100), lease('l3', 10_900, 100), lease('l4', 11_000, 1, ids[1]));
        expect(await view.outcome('l1')).toEqual({ leased: [ids[0], ids[1]] });
        expect(await view.outcome('l2')).toEqual({ leased: [ids[2]] });
        expect(await view.outcome('l3')).toEqual({ leased: [ids[3]] });
        // At 11 000 the leases of l1 (until 11 000) have expired: from ids[1] on, ids[1] is free again.
        expect(await view.outcome('l4')).toEqual({ leased: [ids[1]] });
        expect((await all(S1)).map((b) => b.leasedUntil)).toEqual([11_000, 12_000, 11_500, 11_900]);
        await apply(event(FRONTIER_BATCHES_DELETED, S1, { ids: [ids[0]] }), lease('l5', 20_000, 1_000));
        expect(await view.outcome('l5')).toEqual({ leased: ids.slice(1) });
      });

      it('forgets fingerprints and batches of a deleted slot', async () => {
        await apply(added(S1, [{ fp: 'a' }, { fp: 'b' }], 'r1'), event(FRONTIER_SLOT_DELETED, S1, {}), added(S1, [{ fp: 'a' }], 'r2'));
        expect(await view.outcome('r2')).toEqual({ newcount: 1 });
        expect((await all(S1)).map((b) => b.requests)).toEqual(['[["a",null]]']);
        expect(await view.slots(1, 'f1')).toEqual(['example.com']);
      });

      it('changes nothing when facts are folded again (redelivered batch, or straight to the projection after a crash)', async () => {
        const requests = [
          added(S1, Array.from({ length: 120 }, (_, i) => ({ fp: `r${i}`, fdata: i })), 'a1'),
          added(S1, [{ fp: 'r1' }, { fp: 'new' }], 'a2'),
          event(FRONTIER_BATCHES_LEASED, S1, { requestId: 'l1', mincount: 1, leaseMs: 60_000, start: null }),
          event(FRONTIER_BATCHES_DELETED, S1, { ids: [batchId(0, 0, 1)] }),
          added(S2, [{ fp: 'x' }], 'a3'),
          event(FRONTIER_SLOT_DELETED, S2, {}),
        ];
        const facts = await apply(...requests);
        const snapshot = async () => ({
          s1: await all(S1),
          s2: await all(S2),
          fps: await view.fingerprints(S1, {}, 1000),
          slots: await view.slots(1, 'f1'),
          outcomes: await Promise.all(['a1', 'a2', 'l1', 'a3'].map((id) => view.outcome(id))),
        });
        const before = await snapshot();
        expect(before.outcomes).toEqual([{ newcount: 120 }, { newcount: 1 }, { leased: [batchId(0, 0, 0)] }, { newcount: 1 }]);
        expect(before.s1.map((b) => b.id)).toEqual([batchId(0, 0, 0), batchId(0, 1, 0)]);
        expect(before.slots).toEqual(['example.com']);
        await fold(facts);
        // A fact at or below the decided-through mark changes nothing, whether its checkpoint passed it or not.
        const projection = new FrontierProjection(view);
        for (const e of facts) await projection.apply(e);
        expect(await snapshot()).toEqual(before);
      });

      if (name === 'mongodb') {
        it('a crash after some fingerprints of a fact were written: the fact folded again writes what it would have', async () => {
          await apply(added(S1, [{ fp: 'known' }], 'k'));
          const fact = await decide(added(S1, [{ fp: 'known' }, { fp: 'n1' }, { fp: 'n2' }, { fp: 'n3' }], 'crashy'));
          // The projector wrote two of the fact's fingerprints, then died (no batches, no answer, no mark, no checkpoint).
          await view.addFingerprints(fact, S1, fps('n1', 'n2'));
          await fold([fact]);
          expect(await view.outcome('crashy')).toEqual({ newcount: 3 });
          expect((await all(S1)).flatMap((b) => JSON.parse(b.requests).map((r: [string]) => r[0]))).toEqual(['known', 'n1', 'n2', 'n3']);
        });
      }
    });
  });
}
