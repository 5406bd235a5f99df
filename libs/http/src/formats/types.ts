/** The result formats of the storage API (`format=` values). */
export type ResultFormat = 'jl' | 'json' | 'xml' | 'csv' | 'text' | 'msgpack';

export const RESULT_FORMATS: readonly ResultFormat[] = ['jl', 'json', 'xml', 'csv', 'text', 'msgpack'];

/** CSV rendering options; see `csv.ts` for the quoting rules. */
export interface CsvOptions {
  /** Column names, left to right (top-level fields of each record). */
  fields: string[];
  /** Emit a header row with the field names first. */
  includeHeaders: boolean;
  /** Separator between cells (default `,`). */
  sep: string;
  /** Quote character (default `"`). */
  quote: string;
  /** Escape character for quote characters inside a quoted cell; equal to `quote`
   *  (the default) means RFC 4180 doubling (`"` → `""`). */
  escape: string;
  /** Written after every row, including the last (default `\r\n`). */
  lineEnd: string;
}

/** Defaults for the optional CSV parameters (those of RFC 4180 and Python's csv module). */
export const CSV_DEFAULTS: Readonly<Omit<CsvOptions, 'fields'>> = Object.freeze({
  includeHeaders: false,
  sep: ',',
  quote: '"',
  escape: '"',
  lineEnd: '\r\n',
});

/**
 * A bad format request. `message` is a one-line human text meant for a plain-text
 * error body (`text/plain; charset=UTF-8`; the HTTP layer adds the trailing `\n`
 * like the other storage errors); `status` is 400 (bad `format=` or CSV parameter)
 * or 406 (Accept names only unsupported types).
 */
export class FormatError extends Error {
  constructor(message: string, public readonly status: 400 | 406) {
    super(message);
    this.name = 'FormatError';
  }
}

/**
 * Streams records. Each record arrives as a compact JSON text (what the store keeps,
 * with any meta fields already appended). The body is `head()`, then `record()` for
 * each record in order, then `tail()`; an encoder keeps per-response state (e.g. the
 * JSON array's commas), so use one encoder per response.
 */
export interface RecordEncoder {
  readonly contentType: string;
  head(): Buffer | string;
  record(json: string): Buffer | string;
  /**
   * A page of stored JSON lines (`JsonLinesPage`), encoded without decoding its records;
   * only formats whose records are the stored texts themselves have it (jl, json).
   */
  jsonLines?(page: Buffer): Buffer[];
  tail(): Buffer | string;
}
