import type { FastifyRequest } from 'fastify';
import { parseJson } from './json-input';
import { StorageHttpError } from './storage-http-error';

const MAX_FORM_BYTES = 1024 * 1024;

/**
 * The parameters of a dash request: the query string, then the form-encoded body (the
 * official clients send both). Repeated names keep every value, in order.
 */
export async function formParams(req: FastifyRequest): Promise<URLSearchParams> {
  const params = new URLSearchParams(req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '');
  if (req.method === 'GET' || req.method === 'HEAD') return params;
  const body = (await readBody(req, MAX_FORM_BYTES)).toString('utf8');
  const type = String(req.headers['content-type'] ?? '');
  if (body.trim() === '') return params;
  if (type.includes('application/json')) {
    let parsed: unknown;
    try {
      parsed = parseJson(body);
    } catch (e) {
      throw StorageHttpError.badRequest(`malformed JSON body (${(e as Error).message})`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw StorageHttpError.badRequest('the JSON body must be an object');
    for (const [k, v] of Object.entries(parsed)) {
      for (const x of Array.isArray(v) ? v : [v]) params.append(k, typeof x === 'string' ? x : JSON.stringify(x));
    }
    return params;
  }
  for (const [k, v] of new URLSearchParams(body)) params.append(k, v);
  return params;
}

/** A whole (small) body, refused with 413 past `limit` bytes. */
export async function readBody(req: FastifyRequest, limit: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const piece of req.raw) {
    size += (piece as Buffer).length;
    if (size > limit) throw new StorageHttpError(413, `request body too large (max ${limit} bytes)`);
    parts.push(piece as Buffer);
  }
  return Buffer.concat(parts);
}
