import { FRONTIER_BATCHES_DELETED, FRONTIER_BATCHES_LEASED, FRONTIER_REQUESTS_ADDED, FRONTIER_SLOT_DELETED } from '@crawlhub/contracts';
import { batchId } from './batches';
import { decideFrontier, FrontierState } from './decide-frontier';
import { LeaseCandidate } from './lease';
import { requestLine } from './requests';

const SLOT = { project: 1, frontier: 'f', slot: 's' };

/** A slot that knows `known` and queues `batches` (in id order). */
function state(known: string[], batches: LeaseCandidate[] = []): FrontierState {
  return {
    knownFingerprints: async (_slot, fps) => fps.map((fp) => known.includes(fp)),
    leaseCandidates: async (_slot, range, limit) =>
      batches.filter((b) => (range.after !== undefined ? b.id > range.after : b.id >= (range.from ?? ''))).slice(0, limit),
  };
}

describe('decideFrontier', () => {
  it('counts the fingerprints new to the slot (first occurrence in the POST wins) and carries their own lines in batch order', async () => {
    const lines = [{ fp: 'a' }, { fp: 'k' }, { fp: 'b', p: 1, qdata: { q: 1 } }, { fp: 'a', p: 2 }, { fp: 'c' }].map((o, i) => requestLine(o, i + 1));
    const decided = await decideFrontier(state(['k']), { type: FRONTIER_REQUESTS_ADDED, data: { ...SLOT, requestId: 'r' }, lines: [...lines, ''], offset: 9, at: 0 });
    expect(decided.decision).toEqual({ op: 'add', newcount: 3, batches: [{ id: batchId(0, 9, 0), count: 2 }, { id: batchId(1, 9, 1), count: 1 }] });
    expect(decided.lines).toEqual([lines[0], lines[4], lines[2]]);
  });

  it('leases, from start, the batches whose lease has expired at the request time until mincount, reading page after page', async () => {
    const batches = Array.from({ length: 450 }, (_, i) => ({ id: batchId(0, i, 0), count: 1, leasedUntil: i === 1 ? 5_000 : 0 }));
    const lease = (mincount: number, start: string | null) =>
      decideFrontier(state([], batches), { type: FRONTIER_BATCHES_LEASED, data: { ...SLOT, requestId: 'l', mincount, leaseMs: 60_000, start }, lines: [], offset: 3, at: 1_000 });
    expect((await lease(2, null)).decision).toEqual({ op: 'lease', leased: [batches[0].id, batches[2].id], until: 61_000 });
    const many = (await lease(300, batches[100].id)).decision;
    expect(many.op === 'lease' && many.leased).toEqual(batches.slice(100, 400).map((b) => b.id));
  });

  it('decides deletes as they were asked', async () => {
    const at = { lines: [], offset: 1, at: 0 };
    expect((await decideFrontier(state([]), { type: FRONTIER_BATCHES_DELETED, data: { ...SLOT, ids: ['x'] }, ...at })).decision).toEqual({ op: 'delete-batches', ids: ['x'] });
    expect((await decideFrontier(state([]), { type: FRONTIER_SLOT_DELETED, data: SLOT, ...at })).decision).toEqual({ op: 'delete-slot' });
  });
});
