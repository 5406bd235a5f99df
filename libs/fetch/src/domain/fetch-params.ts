import type { FetchRequested } from '@crawlhub/contracts';
import { decodeForm, parseBoolean, parseJson as parseBoundedJson } from '@crawlhub/http';
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

const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const JOB_ID = /^\d{1,15}\/\d{1,15}\/\d{1,15}$/;

/** A form body (the one strict decoder of every API, `decodeForm`), each name at most once. */
export function parseForm(text: string): Record<string, unknown> {
  let pairs: [string, string][];
  try {
    pairs = decodeForm(text);
  } catch (e) {
    throw new FetchInputError('bad_form', (e as Error).message);
  }
  const out: Record<string, unknown> = {};
  for (const [name, value] of pairs) {
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

/** A flag: absent, null or empty is false; otherwise a boolean or parseBoolean's words. */
function flag(name: string, v: unknown): boolean {
  if (v === undefined || v === null || typeof v === 'boolean') return v === true;
  const value = String(v).trim() === '' ? false : parseBoolean(String(v));
  if (value === null) throw new FetchInputError('bad_parameter', `${name} must be true or false, not ${JSON.stringify(v)}`);
  return value;
}

function optionalText(name: string, v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string') throw new FetchInputError('bad_parameter', `${name} must be a string`);
  return v;
}

/** `method`: GET when absent (or null); a given one must be a method name (an empty one is not). */
function methodOf(v: unknown): string {
  if (v === undefined || v === null) return 'GET';
  if (typeof v !== 'string') throw new FetchInputError('bad_parameter', 'method must be a string');
  const method = v.toUpperCase();
  if (!/^[A-Z]{1,20}$/.test(method) || method === 'CONNECT') throw new FetchInputError('bad_parameter', `bad method ${JSON.stringify(v)}`);
  return method;
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
  const method = methodOf(input.method);
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
