import { ActivityInputError, parseActivityMessages, readActivityBody } from './activity-body';

const MAX = 1024;

describe('parseActivityMessages', () => {
  it('reads one object, compact texts kept as written, others re-serialised compactly', () => {
    expect(parseActivityMessages('{"b":1,"a":1.0}', MAX)).toEqual(['{"b":1,"a":1.0}']);
    expect(parseActivityMessages('{"b": 1, "a": "x"}\n', MAX)).toEqual(['{"b":1,"a":"x"}']);
    expect(parseActivityMessages('{\n  "b": 1,\n  "a": [1, 2]\n}\n', MAX)).toEqual(['{"b":1,"a":[1,2]}']);
  });

  it('reads JSON lines in order, skipping blank lines and CRs', () => {
    expect(parseActivityMessages('{"n":1}\r\n\n{"n": 2}\n{"n":3}', MAX)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    expect(parseActivityMessages('', MAX)).toEqual([]);
    expect(parseActivityMessages(' \n\n', MAX)).toEqual([]);
  });

  it('refuses malformed lines and non-objects, naming the line', () => {
    const fails = (text: string) => {
      try {
        parseActivityMessages(text, MAX);
      } catch (e) {
        return [(e as ActivityInputError).status, (e as Error).message];
      }
      return null;
    };
    expect(fails('{"a":1}\n{"b":\n{"c":3}')).toEqual([400, expect.stringMatching(/^Error parsing data, line 2: invalid JSON/)]);
    expect(fails('\n[1]\n')).toEqual([400, 'Error parsing data, line 2: an activity message must be a JSON object']);
    expect(fails('{"a":1}\nnull')).toEqual([400, 'Error parsing data, line 2: an activity message must be a JSON object']);
    expect(fails('"text"')).toEqual([400, 'Error parsing data, line 1: an activity message must be a JSON object']);
    expect(fails(`{"a":1}\n{"big":"${'x'.repeat(MAX)}"}`)).toEqual([413, `Error parsing data, line 2: Serialized value too large - max ${MAX} bytes`]);
  });
});

describe('readActivityBody', () => {
  it('reads a body up to the limit, 413 past it', async () => {
    expect(await readActivityBody([Buffer.from('{"a":'), Buffer.from('"é"}')], 100)).toBe('{"a":"é"}');
    await expect(readActivityBody([Buffer.alloc(60), Buffer.alloc(60)], 100)).rejects.toMatchObject({ status: 413 });
  });

  it('reads a character split across pieces, and refuses bytes that are not UTF-8 with 400', async () => {
    expect(await readActivityBody([Buffer.from([0x22, 0xc3]), Buffer.from([0xa9, 0x22])], 100)).toBe('"é"');
    await expect(readActivityBody([Buffer.from('{"event":"'), Buffer.from([0xc0, 0xff]), Buffer.from('"}')], 100)).rejects.toMatchObject({
      status: 400,
      message: 'Error parsing data: not valid UTF-8',
    });
  });
});
