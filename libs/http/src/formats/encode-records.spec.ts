import { decodeMulti } from '@msgpack/msgpack';
import { Readable } from 'node:stream';
import { CHUNK_BYTES, createEncoder, encodeRecords, JsonLinesPage } from './index';

async function collect(it: AsyncIterable<Buffer>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const b of it) out.push(b);
  return out;
}

async function* asyncOf(items: string[]): AsyncGenerator<string> {
  for (const i of items) {
    await Promise.resolve();
    yield i;
  }
}

const manyRecords = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ id: i, name: `record number ${i}`, tag: 'é' }));

describe('encodeRecords', () => {
  it('yields nothing for an empty jl body', async () => {
    expect(await collect(encodeRecords([], createEncoder('jl')))).toEqual([]);
  });

  it('yields head and tail even without records', async () => {
    const chunks = await collect(encodeRecords([], createEncoder('json')));
    expect(Buffer.concat(chunks).toString()).toBe('[]');
  });

  it.each([
    ['an array', (r: string[]) => r],
    ['a generator', (r: string[]) => r.values()],
    ['an async iterable', (r: string[]) => asyncOf(r)],
  ])('batches into ~64 KiB chunks from %s, bytes identical to the unbatched output', async (_name, source) => {
    const chunks = await collect(encodeRecords(source(manyRecords), createEncoder('jl')));
    const whole = Buffer.concat(chunks);
    expect(whole.toString('utf8')).toBe(manyRecords.join('\n') + '\n');
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks.slice(0, -1)) {
      expect(c.length).toBeGreaterThanOrEqual(CHUNK_BYTES);
      // Sizes are counted in UTF-16 units before encoding, so non-ASCII text overshoots a little.
      expect(c.length).toBeLessThan(CHUNK_BYTES * 1.1);
    }
  });

  it('honours a custom chunk size', async () => {
    const chunks = await collect(encodeRecords(['{"a":1}', '{"a":2}', '{"a":3}'], createEncoder('jl'), 8));
    expect(chunks.map((c) => c.toString())).toEqual(['{"a":1}\n', '{"a":2}\n', '{"a":3}\n']);
  });

  it('mixes string heads/tails and Buffer records (msgpack), through Readable.from', async () => {
    const chunks: Buffer[] = [];
    for await (const c of Readable.from(encodeRecords(asyncOf(manyRecords), createEncoder('msgpack')))) chunks.push(c as Buffer);
    expect([...decodeMulti(Buffer.concat(chunks))]).toEqual(manyRecords.map((r) => JSON.parse(r)));
  });

  it('wraps xml correctly across chunks', async () => {
    const whole = Buffer.concat(await collect(encodeRecords(manyRecords, createEncoder('xml')))).toString('utf8');
    expect(whole.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<methodResponse>')).toBe(true);
    expect(whole.endsWith('</methodResponse>\n')).toBe(true);
    expect(whole.match(/<value><struct>/g)).toHaveLength(manyRecords.length);
  });

  it('propagates errors from the source and from the encoder', async () => {
    async function* failing(): AsyncGenerator<string> {
      yield '{"a":1}';
      throw new Error('store went away');
    }
    await expect(collect(encodeRecords(failing(), createEncoder('jl')))).rejects.toThrow('store went away');
    await expect(collect(encodeRecords(['{"a":'], createEncoder('msgpack')))).rejects.toThrow(SyntaxError);
  });
});

describe('encodeRecords with pages of stored bytes (JsonLinesPage)', () => {
  const records = ['{"a":1}', '{"b":"é, \\"x\\"\\n"}', '[1,2]', '{"c":null}', '{"d":{"e":[]}}'];
  const page = (texts: string[]) => new JsonLinesPage(Buffer.from(texts.map((t) => `${t}\n`).join('')));
  const mixed = () => [page(records.slice(0, 2)), [records[2]], page(records.slice(3))];

  it.each(['jl', 'json', 'xml', 'csv', 'text', 'msgpack'] as const)('encodes %s exactly as the same records given as texts', async (format) => {
    const csv = { fields: ['a', 'b'], includeHeaders: true, sep: ',', quote: '"', escape: '"', lineEnd: '\r\n' };
    const viaTexts = Buffer.concat(await collect(encodeRecords([records], createEncoder(format, csv))));
    const viaPages = Buffer.concat(await collect(encodeRecords(mixed(), createEncoder(format, csv))));
    expect(viaPages.equals(viaTexts)).toBe(true);
  });

  it('passes a jl page on as the same Buffer, without copying it', async () => {
    const p = page(manyRecords);
    const chunks = await collect(encodeRecords([p], createEncoder('jl')));
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toBe(p.bytes);
  });
});
