import { IngestError } from '@crawlhub/http';
import { readJsonLines } from './json-lines-reader';

async function collect(pieces: string[], chunkBytes = 1 << 20, maxRecordBytes = 1 << 20) {
  const out = [];
  for await (const c of readJsonLines(pieces, 'items', { maxRecordBytes, chunkBytes })) out.push(c.records.map((r) => r.json));
  return out;
}

describe('readJsonLines', () => {
  it('joins lines split across network chunks and skips blank lines', async () => {
    expect(await collect(['{"a":', '1}\n\n{"b"', ':2}\n{"c":3}'])).toEqual([['{"a":1}', '{"b":2}', '{"c":3}']]);
  });
  it('cuts the stream into chunks of about chunkBytes', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `{"i":${i}}\n`);
    const chunks = await collect(lines, 64);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.flat()).toHaveLength(100);
  });
  it('names the malformed line', async () => {
    await expect(collect(['{"a":1}\n{"b":\n'])).rejects.toThrow('line 2');
    await expect(collect(['{"a":1}\n[1,2]\n'])).rejects.toMatchObject({ status: 400 });
  });
  it('refuses a record whose position would be past 2^53 - 1, so every record of an accepted body is readable', async () => {
    const read = async (start: number, lines: string[]) => {
      let n = 0;
      for await (const c of readJsonLines(lines, 'items', { maxRecordBytes: 1000, chunkBytes: 1 << 20, start })) n += c.records.length;
      return n;
    };
    expect(await read(Number.MAX_SAFE_INTEGER - 2, ['{"a":1}\n', '\n', '{"a":2}\n', '{"a":3}\n'])).toBe(3);
    await expect(read(Number.MAX_SAFE_INTEGER - 1, ['{"a":1}\n{"a":2}\n{"a":3}\n'])).rejects.toMatchObject({
      status: 400,
      message: 'Error parsing data, line 3: its position 9007199254740992 is past the last record position 9007199254740991',
    });
  });

  it('refuses a line over the limit with 413 before reading it whole', async () => {
    const big = '{"x":"' + 'y'.repeat(2000) + '"}';
    const err = await collect(['{"a":1}\n', big.slice(0, 1500), big.slice(1500)], 1 << 20, 1000).catch((e) => e);
    expect(err).toBeInstanceOf(IngestError);
    expect(err.status).toBe(413);
  });
});
