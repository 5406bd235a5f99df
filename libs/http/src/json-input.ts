/**
 * JSON that clients send, checked once where it comes in.
 *
 * Nesting is bounded: JSON.parse takes any depth, but every later step that walks a value
 * recursively (the log's encoder, the msgpack/xml/csv writers, a Python client) has a
 * stack, and a value nested thousands deep breaks it, at write or, worse, at every read
 * of the job or collection that holds it. So a value nesting arrays and objects more than
 * MAX_JSON_DEPTH deep is refused before it is stored (docs/storage-api.md, Limits).
 */

/** The deepest nesting of arrays and objects a client's JSON value may have (`[[1]]` is 2). */
export const MAX_JSON_DEPTH = 100;

export const TOO_DEEP = `nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects (the limit)`;

/**
 * Whether a JSON text opens more than `max` arrays and objects at once (jsonTextFlags): a
 * text of at most `max` characters cannot be that deep and is not even scanned. A
 * malformed text is left for the parser to refuse.
 */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  return text.length > max && (jsonTextFlags(text, max) & JSON_TOO_DEEP) !== 0;
}

/** A flag of jsonTextFlags: the text nests deeper than the limit. */
export const JSON_TOO_DEEP = 1;
/** A flag of jsonTextFlags: the text has whitespace outside its strings (it is not compact JSON). */
export const JSON_NOT_COMPACT = 2;

/**
 * What one pass over a JSON text tells, outside its strings (each skipped with `indexOf`):
 * JSON_TOO_DEEP when it opens more than `max` arrays and objects at once, JSON_NOT_COMPACT
 * when it has whitespace. Allocates nothing and checks nothing else: a malformed text is
 * left for the parser. The ingest path of JSON lines asks both once per line: two passes
 * (nestsDeeperThan, then isCompactJson) cost about as much as the line's JSON.parse.
 */
export function jsonTextFlags(text: string, max: number = MAX_JSON_DEPTH): number {
  let depth = 0;
  let flags = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = closingQuote(text, i);
      if (i < 0) return flags;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return flags | JSON_TOO_DEEP;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    } else if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      flags |= JSON_NOT_COMPACT;
    }
  }
  return flags;
}

/** The index of the quote that closes the string opened at `open`, or -1 if it never closes. */
function closingQuote(text: string, open: number): number {
  let q = open;
  for (;;) {
    q = text.indexOf('"', q + 1);
    if (q < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === 0x5c /* \ */) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
}

/** A JSON text refused for its nesting; a SyntaxError, so every "malformed JSON" path refuses it with 400. */
export class JsonTooDeepError extends SyntaxError {
  constructor() {
    super(TOO_DEEP);
  }
}

/** JSON.parse of a client's text, refusing (JsonTooDeepError) a value nested deeper than MAX_JSON_DEPTH. */
export function parseJson(text: string): unknown {
  if (nestsDeeperThan(text)) throw new JsonTooDeepError();
  return JSON.parse(text);
}
