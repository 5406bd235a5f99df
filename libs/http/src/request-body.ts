import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ApiError } from './api-error';
import { decodeUtf8, InvalidUtf8Error } from './utf8';

/**
 * Request bodies as every API reads them (the framework parses none: startHttpApp): the
 * bytes as sent once `Content-Encoding` is undone (identity or gzip; any other is a 415),
 * streamed, or whole up to a limit, or whole as strict UTF-8 text. A gzip body that is not
 * gzip, or is cut short, is a 400; no API takes a body without looking at its encoding.
 */

/** The body as it streams in, gunzipped when sent with `Content-Encoding: gzip`. */
export function decodedBody(req: FastifyRequest): AsyncIterable<Buffer> {
  const encoding = String(req.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return drainedWhenLeft(req.raw, req.raw.iterator({ destroyOnReturn: false }));
  if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipped(req.raw);
  throw new ApiError(415, `Unsupported content-encoding: ${encoding}`);
}

/**
 * A reader may stop before the end of a body (a refused line, a limit): the request must
 * then not be destroyed, which would reset the connection before the error answer goes
 * out (and a client still sending would see a reset, not the answer). What is left is read
 * and dropped instead, so the answer is sent and the connection serves the next request;
 * the server's request timeout bounds how long a client may go on sending.
 */
async function* drainedWhenLeft(raw: Readable, pieces: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let ended = false;
  try {
    for await (const piece of pieces) yield piece;
    ended = true;
  } finally {
    if (!ended && !raw.destroyed) {
      raw.unpipe();
      raw.resume();
    }
  }
}

async function* gunzipped(raw: Readable): AsyncGenerator<Buffer> {
  try {
    for await (const piece of drainedWhenLeft(raw, raw.pipe(createGunzip()))) yield piece;
  } catch (e) {
    // zlib's errors carry a Z_* code (checked by shape: they may come from another realm).
    const code = (e as NodeJS.ErrnoException | null)?.code;
    if (typeof code === 'string' && code.startsWith('Z_')) throw ApiError.badRequest(`Error decoding gzip body: ${(e as Error).message}`);
    throw e;
  }
}

/** A whole (small) body, decoded, refused with 413 past `limit` bytes (counted after gunzip: a gzip bomb stops there). */
export async function readBody(req: FastifyRequest, limit: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const piece of decodedBody(req)) {
    size += piece.length;
    if (size > limit) throw new ApiError(413, `request body too large (max ${limit} bytes)`);
    parts.push(piece);
  }
  return Buffer.concat(parts);
}

/** A whole (small) body as text: readBody, then strict UTF-8 (400 for bytes that are not). */
export async function readText(req: FastifyRequest, limit: number): Promise<string> {
  const bytes = await readBody(req, limit);
  try {
    return decodeUtf8(bytes);
  } catch (e) {
    if (e instanceof InvalidUtf8Error) throw ApiError.badRequest('the request body is not valid UTF-8');
    throw e;
  }
}
