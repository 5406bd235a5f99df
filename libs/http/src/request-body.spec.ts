import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { decodedBody, readBody, readText } from './request-body';
import { ApiError } from './api-error';

/** A request whose body arrives in these pieces. */
function request(pieces: (string | Buffer)[], headers: Record<string, string> = {}): FastifyRequest {
  return { headers, raw: Readable.from(pieces.map((p) => Buffer.from(p))) } as unknown as FastifyRequest;
}

async function bytesOf(body: AsyncIterable<Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const piece of body) parts.push(piece);
  return Buffer.concat(parts).toString('utf8');
}

describe('decodedBody', () => {
  it('passes an identity body as it streams, and gunzips a gzip one', async () => {
    expect(await bytesOf(decodedBody(request(['a\n', 'b\n'])))).toBe('a\nb\n');
    expect(await bytesOf(decodedBody(request(['a\n'], { 'content-encoding': 'identity' })))).toBe('a\n');
    const zipped = gzipSync('{"a":1}\n');
    expect(await bytesOf(decodedBody(request([zipped.subarray(0, 5), zipped.subarray(5)], { 'content-encoding': 'GZip' })))).toBe('{"a":1}\n');
  });

  it('refuses another encoding with 415 before reading anything', () => {
    expect(() => decodedBody(request(['x'], { 'content-encoding': 'br' }))).toThrow(expect.objectContaining({ status: 415, message: 'Unsupported content-encoding: br' }));
  });

  it('refuses a gzip body that is not gzip, or is cut short, with 400', async () => {
    const notGzip = bytesOf(decodedBody(request(['{"url":"x"}'], { 'content-encoding': 'gzip' })));
    await expect(notGzip).rejects.toBeInstanceOf(ApiError);
    await expect(notGzip).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^Error decoding gzip body: /) });
    const zipped = gzipSync('x'.repeat(1000));
    await expect(bytesOf(decodedBody(request([zipped.subarray(0, zipped.length - 8)], { 'content-encoding': 'gzip' })))).rejects.toMatchObject({ status: 400 });
  });
});

describe('readBody and readText', () => {
  it('read a whole body, gunzipped', async () => {
    expect((await readBody(request([gzipSync('project=1')], { 'content-encoding': 'gzip' }), 100)).toString()).toBe('project=1');
    expect(await readText(request([Buffer.from('{"a":"日'), Buffer.from('本"}')]), 100)).toBe('{"a":"日本"}');
  });

  it('refuse more than the limit, counted after gunzip (a gzip bomb stops there)', async () => {
    await expect(readBody(request([gzipSync(Buffer.alloc(1 << 20))], { 'content-encoding': 'gzip' }), 1000)).rejects.toMatchObject({ status: 413 });
  });

  it('readText refuses bytes that are not UTF-8 with 400, where toString would store U+FFFD', async () => {
    await expect(readText(request([Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xff, 0x22, 0x7d])]), 100)).rejects.toMatchObject({
      status: 400,
      message: 'the request body is not valid UTF-8',
    });
  });
});
