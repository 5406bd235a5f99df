import { IngestError } from '@crawlhub/http';
import { FrontierInputError, requestLine } from '../domain/requests';
import { readRequestBody } from './request-body';

const chunks = (...parts: string[]) => parts.map((p) => Buffer.from(p));

describe('readRequestBody', () => {
  it('reads lines across chunk boundaries, skips blank lines, takes a last line without newline', async () => {
    const out = await readRequestBody(chunks('{"fp":"a"}\n\n{"f', 'p":"b","p":1}\r\n  \n{"fp":"c"}'), 1000, requestLine);
    expect(out).toEqual(['["a",0]', '["b",1]', '["c",0]']);
  });

  it('names the line of malformed JSON or a bad request', async () => {
    const json = await readRequestBody(chunks('{"fp":"a"}\n{nope\n'), 1000, requestLine).catch((e) => e);
    expect(json).toBeInstanceOf(IngestError);
    expect(json).toMatchObject({ status: 400, message: expect.stringContaining('line 2: invalid JSON') });
    const bad = await readRequestBody(chunks('{"fp":"a"}\n\n{"fp":""}\n'), 1000, requestLine).catch((e) => e);
    expect(bad).toBeInstanceOf(FrontierInputError);
    expect(bad).toMatchObject({ status: 400, message: expect.stringContaining('line 3') });
  });

  it('refuses a body over the limit with 413, however short its lines', async () => {
    const err = await readRequestBody(chunks('{"fp":"a"}\n'.repeat(50), '{"fp":"b"}\n'), 500, requestLine).catch((e) => e);
    expect(err).toBeInstanceOf(IngestError);
    expect(err).toMatchObject({ status: 413, message: 'Request Entity Too Large: a frontier POST is limited to 500 bytes; send fewer requests per POST' });
  });

  it('refuses a body over the limit before reading past it (a bad line after the limit is not reached)', async () => {
    const err = await readRequestBody(chunks('{"fp":"a"}\n', 'x'.repeat(600)), 500, requestLine).catch((e) => e);
    expect(err).toMatchObject({ status: 413 });
  });

  it('accepts a body of exactly the limit', async () => {
    const body = '{"fp":"a"}\n'.repeat(10);
    expect(await readRequestBody(chunks(body), body.length, requestLine)).toHaveLength(10);
  });
});
