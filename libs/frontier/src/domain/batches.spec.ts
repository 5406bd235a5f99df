import { BATCH_SIZE, batchId, batchLine, firstOccurrences, isBatchId, planBatches, QueuedRequest } from './batches';

const req = (fp: string, p = 0, qdata: unknown = null, fdata: unknown = null): QueuedRequest => ({ fp, p, qdata, fdata });

describe('batch ids', () => {
  it('are p in 2 hex digits, the offset in 14, the index in 4', () => {
    expect(batchId(0, 0, 0)).toBe('00' + '0'.repeat(14) + '0000');
    expect(batchId(1, 0x1a2b, 3)).toBe('01' + '00000000001a2b' + '0003');
    expect(batchId(255, Number.MAX_SAFE_INTEGER, 65535)).toBe('ff' + '1fffffffffffff' + 'ffff');
    expect(isBatchId(batchId(7, 99, 1))).toBe(true);
    expect(isBatchId('0015f77de6ace00001')).toBe(false);
  });

  it('refuse what does not fit', () => {
    expect(() => batchId(256, 0, 0)).toThrow(RangeError);
    expect(() => batchId(-1, 0, 0)).toThrow(RangeError);
    expect(() => batchId(0, 1.5, 0)).toThrow(RangeError);
    expect(() => batchId(0, 0, 65536)).toThrow(RangeError);
  });

  it('sort by p, then by offset (age), then by index', () => {
    const ids = [batchId(1, 5, 0), batchId(0, 900, 2), batchId(0, 900, 10), batchId(0, 17, 0), batchId(2, 1, 0), batchId(0, 0x100, 0)];
    expect([...ids].sort()).toEqual([batchId(0, 17, 0), batchId(0, 0x100, 0), batchId(0, 900, 2), batchId(0, 900, 10), batchId(1, 5, 0), batchId(2, 1, 0)]);
  });
});

describe('firstOccurrences', () => {
  it('keeps the first occurrence of each fingerprint, in order', () => {
    const out = firstOccurrences([req('a', 0, 'first'), req('b'), req('a', 3, 'second'), req('c'), req('b', 1)]);
    expect(out).toEqual([req('a', 0, 'first'), req('b'), req('c')]);
  });
});

describe('planBatches', () => {
  it('cuts 150 requests into 100 + 50, ids in order', () => {
    const fresh = Array.from({ length: 150 }, (_, i) => req(`fp${i}`));
    const batches = planBatches(42, fresh);
    expect(batches.map((b) => b.count)).toEqual([BATCH_SIZE, 50]);
    expect(batches.map((b) => b.id)).toEqual([batchId(0, 42, 0), batchId(0, 42, 1)]);
    expect(JSON.parse(batches[1].requests)[0]).toEqual(['fp100', null]);
  });

  it('groups by p in order of first appearance, each group in POST order, and indexes across groups', () => {
    const batches = planBatches(7, [req('x', 2), req('a', 0), req('y', 2), req('b', 0, { d: 1 })]);
    expect(batches.map((b) => b.id)).toEqual([batchId(2, 7, 0), batchId(0, 7, 1)]);
    expect(JSON.parse(batches[0].requests)).toEqual([['x', null], ['y', null]]);
    expect(JSON.parse(batches[1].requests)).toEqual([['a', null], ['b', { d: 1 }]]);
    // Read order (by id) serves the lower p first.
    expect(batches.map((b) => b.id).sort()[0]).toBe(batchId(0, 7, 1));
  });

  it('splits every priority group separately at 100', () => {
    const fresh = [...Array.from({ length: 120 }, (_, i) => req(`a${i}`, 1)), ...Array.from({ length: 30 }, (_, i) => req(`b${i}`, 0))];
    expect(planBatches(1, fresh).map((b) => [b.id.slice(0, 2), b.count])).toEqual([['01', 100], ['01', 20], ['00', 30]]);
  });

  it('renders batch lines as compact JSON, qdata null when absent', () => {
    const [b] = planBatches(3, [req('/', 0), req('é"x', 0, [1, { a: 'b' }])]);
    expect(batchLine(b)).toBe(`{"id":"${b.id}","requests":[["/",null],["é\\"x",[1,{"a":"b"}]]]}`);
  });

  it('plans nothing for nothing', () => {
    expect(planBatches(5, [])).toEqual([]);
  });
});
