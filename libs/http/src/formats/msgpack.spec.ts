import { decode, decodeMulti, encode } from '@msgpack/msgpack';
import { createEncoder } from './index';
import { MsgpackWriter } from './msgpack';

function body(records: string[]): Buffer {
  const enc = createEncoder('msgpack');
  const parts = [enc.head(), ...records.map((r) => enc.record(r)), enc.tail()];
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
}

describe('msgpack encoder', () => {
  const w = new MsgpackWriter();

  it('has the content type of the original service', () => {
    expect(createEncoder('msgpack').contentType).toBe('application/x-msgpack; charset=UTF-8');
  });

  it('writes concatenated maps, no array wrapper; decodeMulti gets the records back', () => {
    const records = [
      { id: 3, data: 'data3', _key: '412118/79/3/3' },
      { time: 1556059764461, level: 20, message: 'simple-msg1' },
      { nested: { a: [1, 2, { b: null }], t: true, f: false }, price: 12.5, neg: -7, empty: '' },
    ];
    const out = body(records.map((r) => JSON.stringify(r)));
    expect(out[0]).toBe(0x83); // a fixmap, not an array
    expect([...decodeMulti(out)]).toEqual(records);
  });

  it('writes an empty body for no records', () => {
    expect(body([]).length).toBe(0);
  });

  // Values whose JSON → JS → msgpack path is lossless: our bytes must be exactly
  // @msgpack/msgpack's (same smallest encodings).
  const plain: unknown[] = [
    0, 1, 127, 128, 255, 256, 65535, 65536, 4294967295, 4294967296, 1477663250347, Number.MAX_SAFE_INTEGER,
    -1, -32, -33, -128, -129, -32768, -32769, -2147483648, -2147483649, Number.MIN_SAFE_INTEGER,
    0.5, -12.25, 3.141592653589793, 1e-7, 1.7976931348623157e308,
    '', 'a', 'x'.repeat(31), 'x'.repeat(32), 'x'.repeat(255), 'x'.repeat(256), 'x'.repeat(65535), 'x'.repeat(65536),
    'héllo wörld', '€'.repeat(20), '🙂 emoji', 'é'.repeat(100),
    null, true, false,
    [], Array.from({ length: 15 }, (_, i) => i), Array.from({ length: 16 }, (_, i) => i), Array.from({ length: 70000 }, () => 1),
    {}, Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${i}`, i])),
    Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, i])),
    Object.fromEntries(Array.from({ length: 70000 }, (_, i) => [`k${i}`, i])),
    { deep: [[[{ x: [{}] }]]] },
  ];
  it.each(plain.map((v, i) => [i, v]))('matches @msgpack/msgpack byte for byte (#%i)', (_i, v) => {
    const text = JSON.stringify(v);
    expect(w.encodeJsonText(text).equals(Buffer.from(encode(JSON.parse(text))))).toBe(true);
  });

  it('keeps member order as written, integer-like keys included', () => {
    // {"b":1,"2":2,"10":3}: JSON.parse would reorder to 2, 10, b.
    const out = w.encodeJsonText('{"b":1,"2":2,"10":3}');
    expect([...out]).toEqual([0x83, 0xa1, 0x62, 0x01, 0xa1, 0x32, 0x02, 0xa2, 0x31, 0x30, 0x03]);
  });

  it('keeps duplicate members as written', () => {
    expect([...w.encodeJsonText('{"a":1,"a":2}')]).toEqual([0x82, 0xa1, 0x61, 0x01, 0xa1, 0x61, 0x02]);
  });

  it('keeps 64-bit integers exact (int64/uint64) and floats beyond as float64', () => {
    const big = w.encodeJsonText('[12345678901234567890,-9223372036854775808,18446744073709551615,18446744073709551616]');
    expect(decode(big, { useBigInt64: true })).toEqual([
      12345678901234567890n,
      -9223372036854775808n,
      18446744073709551615n,
      18446744073709551616,
    ]);
    expect(big[1]).toBe(0xcf);
    expect(big[10]).toBe(0xd3);
    expect(big[28]).toBe(0xcb);
  });

  it('writes numbers with a fraction or exponent as float64 (1.0 stays a float)', () => {
    for (const [text, value] of [
      ['1.0', 1],
      ['2e3', 2000],
      ['-0.0', -0],
      ['1E-2', 0.01],
    ] as const) {
      const out = w.encodeJsonText(text);
      expect(out[0]).toBe(0xcb);
      expect(out.readDoubleBE(1)).toBe(value);
    }
    expect([...w.encodeJsonText('-0')]).toEqual([0x00]);
  });

  it('decodes JSON escapes and lone surrogates into UTF-8 strings', () => {
    expect(decode(w.encodeJsonText('"a\\u00e9\\n\\ud83d\\ude00"'))).toBe('aé\n😀');
    expect(decode(w.encodeJsonText('"\\ud800"'))).toBe('\ufffd');
  });

  it('returns independent buffers (the scratch buffer is reused)', () => {
    const a = w.encodeJsonText('{"a":1}');
    w.encodeJsonText('{"b":2}');
    expect(decode(a)).toEqual({ a: 1 });
  });

  it('throws on malformed JSON', () => {
    expect(() => w.encodeJsonText('{"a":')).toThrow(SyntaxError);
  });
});
