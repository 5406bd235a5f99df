import type { FastifyRequest } from 'fastify';
import { parseJson } from './json-input';
import { readText } from './request-body';
import { ApiError } from './api-error';

const MAX_FORM_BYTES = 1024 * 1024;

/** A form (or query string) that cannot be decoded; a SyntaxError, so it is a 400 wherever it is read. */
export class MalformedFormError extends SyntaxError {}

/**
 * The pairs of an `application/x-www-form-urlencoded` text (a body or a query string), in
 * order, repeated names kept. Strict, for every API alike: a malformed %-escape (`%ZZ`,
 * `%4`) or escaped bytes that are not UTF-8 (`%FF`) are a MalformedFormError, where
 * URLSearchParams would keep `%ZZ` as written and turn `%FF` into U+FFFD.
 */
export function decodeForm(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const [name, value] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    try {
      pairs.push([decodeURIComponent(name.replace(/\+/g, ' ')), decodeURIComponent(value.replace(/\+/g, ' '))]);
    } catch {
      throw new MalformedFormError(`malformed form: a bad %-escape, or escaped bytes that are not UTF-8, in ${JSON.stringify(pair.slice(0, 60))}`);
    }
  }
  return pairs;
}

/**
 * The parameters of a dash request: the query string, then the form-encoded body (the
 * official clients send both). Repeated names keep every value, in order.
 */
export async function formParams(req: FastifyRequest): Promise<URLSearchParams> {
  const params = new URLSearchParams();
  append(params, req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '');
  if (req.method === 'GET' || req.method === 'HEAD') return params;
  const body = await readText(req, MAX_FORM_BYTES);
  const type = String(req.headers['content-type'] ?? '');
  if (body.trim() === '') return params;
  if (type.includes('application/json')) {
    let parsed: unknown;
    try {
      parsed = parseJson(body);
    } catch (e) {
      throw ApiError.badRequest(`malformed JSON body (${(e as Error).message})`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw ApiError.badRequest('the JSON body must be an object');
    for (const [k, v] of Object.entries(parsed)) {
      for (const x of Array.isArray(v) ? v : [v]) params.append(k, typeof x === 'string' ? x : JSON.stringify(x));
    }
    return params;
  }
  append(params, body);
  return params;
}

function append(params: URLSearchParams, form: string): void {
  let pairs: [string, string][];
  try {
    pairs = decodeForm(form);
  } catch (e) {
    throw ApiError.badRequest((e as Error).message);
  }
  for (const [k, v] of pairs) params.append(k, v);
}
