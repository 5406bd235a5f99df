import { FrontierInputError, requestLine } from '../domain/requests';
import { readBodyLines } from './read-body-lines';

const chunks = (...parts: string[]) => parts.map((p) => Buffer.from(p));

describe('readBodyLines', () => {
  it('reads lines across chunk boundaries, skips blank lines, takes a last line without newline', async () => {
    const out = await readBodyLines(chunks('{"fp":"a"}\n\n{"f', 'p":"b","p":1}\r\n  \n{"fp":"c"}'), 1000, requestLine);
    expect(out).toEqual(['["a",0]', '["b",1]', '["c",0]']);
  });

  it('names the line of malformed JSON or a bad request', async () => {
    await expect(readBodyLines(chunks('{"fp":"a"}\n{nope\n'), 1000, requestLine)).rejects.toThrow('line 2: invalid JSON');
    await expect(readBodyLines(chunks('{"fp":"a"}\n\n{"fp":""}\n'), 1000, requestLine)).rejects.toThrow('line 3');
  });

  it('refuses a body over the limit with 413', async () => {
    const err = await readBodyLines(chunks('{"fp":"a"}\n'.repeat(50), '{"fp":"b"}\n'), 500, requestLine).catch((e) => e);
    expect(err).toBeInstanceOf(FrontierInputError);
    expect((err as FrontierInputError).status).toBe(413);
  });
});
