import { encode } from '@msgpack/msgpack';
import { msgpackSize } from './msgpack-size';

describe('msgpackSize', () => {
  const samples: unknown[] = [
    null, true, 0, 127, 128, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, -1, -32, -33, -128, -129, -32768, -32769, -(2 ** 31), -(2 ** 31) - 1,
    1.5, 'a', 'x'.repeat(31), 'x'.repeat(32), 'x'.repeat(256), 'x'.repeat(70000), 'héllo', 'é'.repeat(40), '😀 emoji', 'x'.repeat(63) + '€', [], [1, 2, 3], Array.from({ length: 16 }, (_, i) => i),
    { x: 1 }, { a: { b: [1, 'two', null] }, c: true }, Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])),
  ];
  it.each(samples.map((s) => [JSON.stringify(s).slice(0, 40), s]))('matches the real encoding of %s', (_, value) => {
    expect(msgpackSize(value)).toBe(encode(value, { forceFloat32: false }).length);
  });
  it('counts 4 bytes for {"x": n<128}, as the original stats do', () => {
    expect(msgpackSize({ x: 5 })).toBe(4);
  });
});
