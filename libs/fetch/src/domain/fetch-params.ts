import type { FetchRequested } from '@crawlhub/contracts';
import { parseJson as parseBoundedJson } from '@crawlhub/http';
import { checkWebUrl } from '@crawlhub/net';
/**
 * The parameters of POST /fetch/v2, from a form-encoded or a JSON body (the original's
 * fetch middleware sends JSON: compat-notes §4), checked before anything is queued.
 */
export type FetchParams = Omit<FetchRequested, 'id' | 'user' | 'deadline' | 'body'> & {
  /** The body for the website, as the client's text (UTF-8; the event carries it in base64); null: none. */
  body: string | null;
};

/** Bad input: answered 400 `{"error": code, "message": message}`. */
export class FetchInputError extends Error {
  constructor(readonly code: 'bad_json' | 'bad_form' | 'missing_url' | 'bad_url' | 'bad_parameter', message: string) {
    super(message);
  }
}

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off', ''];
const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const JOB_ID = /^\d{1,15}\/\d{1,15}\/\d{1,15}$/;

/** A strict application/x-www-form-urlencoded parser: a malformed %-escape is an error (URLSearchParams would keep it). */
export function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const [rawName, rawValue] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      throw new FetchInputError('bad_form', `malformed form body: bad %-escape in ${JSON.stringify(pair.slice(0, 60))}`);
    }
    if (name in out) throw new FetchInputError('bad_form', `the form names ${name} twice`);
    out[name] = value;
  }
  return out;
}

export function parseJson(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = parseBoundedJson(text);
  } catch (e) {
    throw new FetchInputError('bad_json', `malformed JSON body: ${(e as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new FetchInputError('bad_json', 'the JSON body must be an object');
  return parsed as Record<string, unknown>;
}

function flag(name: string, v: unknown): boolean {
  if (v === undefined || v === null || typeof v === 'boolean') return v === true;
  const text = String(v).trim().toLowerCase();
  if (TRUE.includes(text)) return true;
  if (FALSE.includes(text)) return false;
  throw new FetchInputError('bad_parameter', `${name} must be true or false, not ${JSON.stringify(v)}`);
}

function optionalText(name: string, v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string') throw new FetchInputError('bad_parameter', `${name} must be a string`);
  return v;
}

/** `headers`: an object (name -> value or values), in a form as its JSON text. */
function headersOf(v: unknown): [string, string][] {
  if (v === undefined || v === null || v === '') return [];
  let o: unknown = v;
  if (typeof v === 'string') {
    try {
      o = parseBoundedJson(v);
    } catch {
      throw new FetchInputError('bad_parameter', 'headers must be a JSON object of header names to values');
    }
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new FetchInputError('bad_parameter', 'headers must be an object of header names to values');
  const out: [string, string][] = [];
  for (const [name, value] of Object.entries(o)) {
    if (!TOKEN.test(name)) throw new FetchInputError('bad_parameter', `bad header name ${JSON.stringify(name)}`);
    for (const x of Array.isArray(value) ? value : [value]) {
      if (typeof x !== 'string' && typeof x !== 'number') throw new FetchInputError('bad_parameter', `header ${name} must be a string`);
      if (/[\r\n\0]/.test(String(x))) throw new FetchInputError('bad_parameter', `header ${name} has a line break`);
      out.push([name, String(x)]);
    }
  }
  return out;
}

/** Checks the parameters; other names are ignored (clients may send more than we know). */
export function fetchParamsOf(input: Record<string, unknown>): FetchParams {
  const rawUrl = input.url;
  if (rawUrl === undefined || rawUrl === null || rawUrl === '') throw new FetchInputError('missing_url', 'url is required');
  if (typeof rawUrl !== 'string') throw new FetchInputError('bad_url', 'url must be a string');
  const checked = checkWebUrl(rawUrl);
  if (!checked.ok) {
    if (checked.problem === 'not_http') throw new FetchInputError('bad_url', `only http and https URLs can be fetched, not ${checked.protocol}`);
    if (checked.problem === 'no_host') throw new FetchInputError('bad_url', 'url has no host');
    throw new FetchInputError('bad_url', `url is not a URL: ${JSON.stringify(rawUrl.slice(0, 200))}`);
  }
  const url = checked.url;
  const method = (optionalText('method', input.method) ?? 'GET').toUpperCase();
  if (!/^[A-Z]{1,20}$/.test(method) || method === 'CONNECT') throw new FetchInputError('bad_parameter', `bad method ${JSON.stringify(method)}`);
  const device = optionalText('device', input.device);
  if (device !== null && device !== 'desktop' && device !== 'mobile') throw new FetchInputError('bad_parameter', 'device must be desktop or mobile');
  const region = optionalText('region', input.region);
  if (region !== null && !/^(auto|[A-Za-z]{2})$/.test(region)) throw new FetchInputError('bad_parameter', 'region must be a two-letter country code or auto');
  const jobId = optionalText('job_id', input.job_id);
  if (jobId !== null && !JOB_ID.test(jobId)) throw new FetchInputError('bad_parameter', 'job_id must be <project>/<spider>/<job>');
  const screenshot = flag('screenshot', input.screenshot);
  return {
    url: url.href,
    method,
    headers: headersOf(input.headers),
    body: optionalText('body', input.body),
    region: region === null ? null : region.toLowerCase(),
    device,
    jobId,
    // A screenshot implies rendering (spec).
    render: flag('render', input.render) || screenshot,
    screenshot,
  };
}
