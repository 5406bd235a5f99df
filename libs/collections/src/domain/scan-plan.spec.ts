import { planScan } from './scan-plan';

describe('planScan', () => {
  it('reads everything from start or after startafter', () => {
    expect(planScan({})).toEqual({ segments: [{ low: '', high: null, cap: Infinity }] });
    expect(planScan({ start: 'k5' })).toEqual({ segments: [{ low: 'k5', high: null, cap: Infinity }] });
    expect(planScan({ startafter: 'k5' })).toEqual({ segments: [{ low: 'k5\u0000', high: null, cap: Infinity }] });
    expect(planScan({ start: 'k6', startafter: 'k5' })).toEqual({ segments: [{ low: 'k6', high: null, cap: Infinity }] });
  });

  it('reads prefixes in byte order, each once, with prefixcount per prefix', () => {
    expect(planScan({ prefixes: ['b', 'a', 'ab', 'b'], prefixcount: 2 })).toEqual({
      segments: [
        { low: 'a', high: 'b', cap: 2 },
        { low: 'b', high: 'c', cap: 2 },
      ],
    });
  });

  it('starts inside or after prefixes', () => {
    expect(planScan({ prefixes: ['a', 'c'], start: 'a5' })).toEqual({
      segments: [
        { low: 'a5', high: 'b', cap: Infinity },
        { low: 'c', high: 'd', cap: Infinity },
      ],
    });
    expect(planScan({ prefixes: ['a', 'c'], start: 'b' })).toEqual({ segments: [{ low: 'c', high: 'd', cap: Infinity }] });
  });

  it('selects exact keys, sorted and unique, narrowed by prefixes and start', () => {
    expect(planScan({ keys: ['k2', 'k10', 'k1', 'k2'] })).toEqual({ keys: ['k1', 'k10', 'k2'] });
    expect(planScan({ keys: ['k2', 'k10', 'x1'], prefixes: ['k1', 'x'] })).toEqual({ keys: ['k10', 'x1'] });
    expect(planScan({ keys: ['k2', 'k10', 'k1'], startafter: 'k10' })).toEqual({ keys: ['k2'] });
  });
});
