import { CSV_DEFAULTS, CsvOptions, FormatError, RESULT_FORMATS, ResultFormat } from './types';

type Query = Record<string, string | string[] | undefined>;

/** Accept media types we serve (lower-case, parameters stripped). */
const ACCEPT_TYPES: Readonly<Record<string, ResultFormat>> = {
  'application/x-jsonlines': 'jl',
  'application/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'text/plain': 'text',
  'text/csv': 'csv',
  'application/x-msgpack': 'msgpack',
  'application/msgpack': 'msgpack',
  'application/vnd.msgpack': 'msgpack',
  '*/*': 'jl',
  'application/*': 'jl',
  'text/*': 'text',
};

const SUPPORTED_ACCEPT =
  'application/x-jsonlines, application/json, application/xml, text/plain, text/csv, application/x-msgpack';

/**
 * Picks the result format.
 *
 * - `format=` wins when given (non-empty); the Accept header is then not looked at.
 *   Values: jl, json, xml, csv, text, msgpack (case-insensitive); anything else → 400.
 *   When repeated, the first value counts.
 * - Otherwise the Accept header: the **first** listed media range we serve wins, in the
 *   order written (q-values are ignored except that `q=0` excludes a range). Served:
 *   application/x-jsonlines, application/json, application/xml (and text/xml),
 *   text/plain, text/csv, application/x-msgpack (and application/msgpack,
 *   application/vnd.msgpack); the wildcards (star/star, `application/*`) mean jl and
 *   `text/*` means text. An Accept that lists only other types → 406.
 * - Neither (or an empty Accept) → jl.
 *
 * For csv the CSV parameters are read from the query (see `parseCsvOptions`).
 */
export function negotiateFormat(query: Query, accept: string | undefined): { format: ResultFormat; csv?: CsvOptions } {
  const format = resolveFormat(query, accept);
  return format === 'csv' ? { format, csv: parseCsvOptions(query) } : { format };
}

function resolveFormat(query: Query, accept: string | undefined): ResultFormat {
  const given = first(query.format)?.trim();
  if (given) {
    const f = given.toLowerCase();
    if ((RESULT_FORMATS as readonly string[]).includes(f)) return f as ResultFormat;
    throw new FormatError(`Invalid format: ${given} (supported: ${RESULT_FORMATS.join(', ')})`, 400);
  }
  if (accept === undefined || accept.trim() === '') return 'jl';
  for (const range of accept.split(',')) {
    const [type, ...params] = range.split(';');
    const mediaType = type.trim().toLowerCase();
    if (!mediaType) continue;
    if (params.some(isQZero)) continue;
    const f = ACCEPT_TYPES[mediaType];
    if (f) return f;
  }
  throw new FormatError(`Not Acceptable: supported types are ${SUPPORTED_ACCEPT}`, 406);
}

function isQZero(param: string): boolean {
  const eq = param.indexOf('=');
  if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'q') return false;
  const q = Number(param.slice(eq + 1).trim());
  return q === 0;
}

const TRUE_VALUES = new Set(['1', 'y', 'yes', 'true', 'on']);

/**
 * CSV parameters from the query:
 * - `fields` (required): comma-separated names, left to right; names are trimmed and
 *   empty names dropped; repeated `fields=` parameters are concatenated. None → 400.
 * - `include_headers`: `1`, `Y`, `yes`, `true`, `on` (case-insensitive) → header row;
 *   anything else → none.
 * - `sep`, `quote`, `escape` (each one character) and `lineend` (non-empty): taken
 *   literally, except that backslash sequences are decoded (`\t`, `\n`, `\r`, `\\`,
 *   `\0`, `\xHH`, `\uHHHH`; e.g. `lineend=\n`, `sep=\t`). Empty or absent → the default
 *   (`,` `"` `"` `\r\n`). `quote` must differ from `sep`. Violations → 400.
 */
export function parseCsvOptions(query: Query): CsvOptions {
  const raw = query.fields;
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const fields = list
    .flatMap((v) => v.split(','))
    .map((f) => f.trim())
    .filter((f) => f !== '');
  if (fields.length === 0) {
    throw new FormatError('Missing required parameter for csv format: fields (comma-separated field names)', 400);
  }
  const includeHeaders = TRUE_VALUES.has((first(query.include_headers) ?? '').trim().toLowerCase());
  const sep = charParam(query, 'sep', CSV_DEFAULTS.sep);
  const quote = charParam(query, 'quote', CSV_DEFAULTS.quote);
  const escape = charParam(query, 'escape', CSV_DEFAULTS.escape);
  const lineEndRaw = first(query.lineend);
  const lineEnd = lineEndRaw ? unescapeParam(lineEndRaw) : CSV_DEFAULTS.lineEnd;
  if (quote === sep) throw new FormatError('Invalid csv parameters: quote and sep must differ', 400);
  return { fields, includeHeaders, sep, quote, escape, lineEnd };
}

function charParam(query: Query, name: string, dflt: string): string {
  const raw = first(query[name]);
  if (!raw) return dflt;
  const v = unescapeParam(raw);
  if ([...v].length !== 1) {
    throw new FormatError(`Invalid csv parameter ${name}: must be a single character, got ${JSON.stringify(raw)}`, 400);
  }
  return v;
}

/** Decodes backslash sequences (`\t` `\n` `\r` `\\` `\0` `\xHH` `\uHHHH`); other backslashes stay literal. */
export function unescapeParam(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[tnr0\\])/g, (_, e: string) => {
    switch (e[0]) {
      case 't':
        return '\t';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case '0':
        return '\0';
      case '\\':
        return '\\';
      default:
        return String.fromCharCode(parseInt(e.slice(1), 16));
    }
  });
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
