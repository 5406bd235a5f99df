import { IngestError, jsonOfLine, readLines } from './json-lines';

async function collect(pieces: string[], options: Parameters<typeof readLines>[2]) {
  const out: string[][] = [];
  for await (const c of readLines(pieces, (text) => text.trim(), options)) out.push(c.records);
  return out;
}

describe('readLines', () => {
  it('splits lines across pieces, skips blank lines and cuts chunks of about chunkBytes', async () => {
    expect(await collect(['a\n\nb', 'b\r\n  \nc'], { maxRecordBytes: 100, chunkBytes: 1 << 20 })).toEqual([['a', 'bb', 'c']]);
    expect((await collect(Array.from({ length: 20 }, (_, i) => `line${i}\n`), { maxRecordBytes: 100, chunkBytes: 12 })).length).toBeGreaterThan(5);
  });

  it('refuses a line over maxRecordBytes with 413 naming it', async () => {
    const err = await collect(['a\n', 'x'.repeat(50), 'x'.repeat(60)], { maxRecordBytes: 100, chunkBytes: 1 << 20 }).catch((e) => e);
    expect(err).toBeInstanceOf(IngestError);
    expect(err).toMatchObject({ status: 413, message: 'Error parsing data, line 2: Serialized value too large - max 100 bytes' });
  });

  it('refuses a line nested deeper than MAX_JSON_DEPTH with 400 naming it, before the line parser sees it', async () => {
    const seen: string[] = [];
    const lines = ['[1]\n', '['.repeat(101) + ']'.repeat(101) + '\n'];
    const read = async () => {
      for await (const c of readLines(lines, (text) => seen.push(text), { maxRecordBytes: 1 << 20, chunkBytes: 1 << 20 })) void c;
    };
    await expect(read()).rejects.toMatchObject({ status: 400, message: 'Error parsing data, line 2: nested deeper than 100 levels of arrays and objects (the limit)' });
    expect(seen).toEqual(['[1]']);
  });

  it('reads a character whose bytes are split across two pieces', async () => {
    const bytes = Buffer.from('{"a":"日本"}\n');
    const pieces = [bytes.subarray(0, 8), bytes.subarray(8)]; // 日 is bytes 6-8
    const lines: string[] = [];
    for await (const c of readLines(pieces, (text) => text, { maxRecordBytes: 100, chunkBytes: 1 << 20 })) lines.push(...c.records);
    expect(lines).toEqual(['{"a":"日本"}']);
  });

  it('refuses a line that is not UTF-8 with 400 naming it, before the line parser sees it', async () => {
    const seen: string[] = [];
    const body = [Buffer.from('{"a":1}\n{"a":"'), Buffer.from([0xc0, 0xff]), Buffer.from('"}\n')];
    const read = async () => {
      for await (const c of readLines(body, (text) => seen.push(text), { maxRecordBytes: 100, chunkBytes: 1 << 20 })) void c;
    };
    await expect(read()).rejects.toMatchObject({ status: 400, message: 'Error parsing data, line 2: not valid UTF-8' });
    expect(seen).toEqual(['{"a":1}']);
  });

  it('refuses a body over maxBodyBytes with 413', async () => {
    const options = { maxRecordBytes: 100, chunkBytes: 1 << 20, maxBodyBytes: 20, bodyTooLarge: (max: number) => `over ${max}` };
    expect(await collect(['a\n'.repeat(10)], options)).toHaveLength(1);
    await expect(collect(['a\n'.repeat(10), 'b\n'], options)).rejects.toMatchObject({ status: 413, message: 'over 20' });
  });
});

describe('jsonOfLine', () => {
  it('parses a line or refuses it with 400 naming the line', () => {
    expect(jsonOfLine('{"a":1}', 1)).toEqual({ a: 1 });
    expect(() => jsonOfLine('{nope', 7)).toThrow(/^Error parsing data, line 7: invalid JSON \(/);
  });
});
