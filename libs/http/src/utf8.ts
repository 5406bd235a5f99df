/**
 * Text that clients send is UTF-8, and only UTF-8: bytes that are not (a stray 0xFF, a
 * sequence cut short, an encoded surrogate) are refused with a 400 in each API's style,
 * never replaced by U+FFFD and stored (`Buffer.toString` would replace them silently, and
 * the client would read back something else than it wrote).
 */

/** Bytes that are not UTF-8; a SyntaxError, so every "malformed input" path refuses it with 400. */
export class InvalidUtf8Error extends SyntaxError {
  constructor() {
    super('not valid UTF-8');
  }
}

// Stateless between calls (no `stream: true`), so one decoder serves every request. A BOM
// is kept as text, as Buffer.toString keeps it.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The text of complete UTF-8 bytes, or InvalidUtf8Error. Callers that read a stream decode
 * whole units (a line, a body) once they have all their bytes, so a character split across
 * two chunks is never taken for an error.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new InvalidUtf8Error();
  }
}
