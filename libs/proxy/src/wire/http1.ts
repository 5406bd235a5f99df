/**
 * A small, strict HTTP/1.1 message parser for the plain-HTTP data path (docs/proxy.md,
 * "Plain HTTP data path"). Node's llhttp is not exposed publicly and no maintained npm
 * package wraps it, so the proxy parses heads itself, refusing whatever two parsers could
 * read differently (request smuggling): obs-fold, bare CR or LF, a space before the colon,
 * a Content-Length that is not digits or is sent twice, Content-Length together with
 * Transfer-Encoding, a Transfer-Encoding other than `chunked`, malformed chunks. Responses
 * from websites are read as leniently as the framing allows (what matters there is where
 * the body ends).
 */

/** Request heads up to this size, as the original (Node's default is 16 KiB). */
export const MAX_HEADER_BYTES = 100 * 1024;

/** A message the proxy refuses to read: 400 `bad_request`, or 431 `headers_too_large`. */
export class HttpSyntaxError extends Error {
  constructor(
    readonly code: 'bad_request' | 'headers_too_large',
    reason: string,
  ) {
    super(reason);
  }
}

export interface RequestHead {
  method: string;
  /** The request target as sent (absolute form for a proxied request). */
  target: string;
  /** 0 for HTTP/1.0, 1 for HTTP/1.1. */
  minor: 0 | 1;
  /** [name, value, name, value...], case kept. */
  rawHeaders: string[];
  /** Content-Length, or null (none, or chunked). */
  contentLength: number | null;
  chunked: boolean;
  /** Whether the client keeps the connection after this exchange. */
  keepAlive: boolean;
  /** `Expect: 100-continue`: the client waits for a 100 before its body. */
  expectContinue: boolean;
  /** A protocol upgrade (`Connection: upgrade` and `Upgrade`, e.g. a WebSocket): not forwarded. */
  upgrade: boolean;
  proxyAuthorization: string | undefined;
  /** Bytes of the head, the blank line included. */
  size: number;
}

export interface ResponseHead {
  status: number;
  reason: string;
  minor: 0 | 1;
  rawHeaders: string[];
  contentLength: number | null;
  chunked: boolean;
  /** The website closes after this response (Connection: close, HTTP/1.0 without keep-alive). */
  close: boolean;
  setCookie: string[] | undefined;
  size: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) ([\x21-\x7e]+) HTTP\/1\.([01])$/;
/** name ":" OWS value OWS; the value without control characters but HTAB (obs-text allowed). */
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*((?:[^\x00-\x08\x0a-\x1f\x7f]*[^\x00-\x20\x7f])?)[ \t]*$/;
const DIGITS = /^\d{1,15}$/;
const CRLFCRLF = Buffer.from('\r\n\r\n');

/** Where the head in `buf` ends (after its blank line), or -1 when it is not complete yet. */
export function headEnd(buf: Buffer, limit = MAX_HEADER_BYTES): number {
  const at = buf.indexOf(CRLFCRLF);
  if (at < 0) {
    if (buf.length > limit) throw new HttpSyntaxError('headers_too_large', `at most ${limit} bytes`);
    return -1;
  }
  if (at + 4 > limit) throw new HttpSyntaxError('headers_too_large', `at most ${limit} bytes`);
  return at + 4;
}

function hasToken(list: string, token: string): boolean {
  for (const t of list.split(',')) if (t.trim().toLowerCase() === token) return true;
  return false;
}

/** Parses the request head `buf[0, end)` (end from `headEnd`); throws HttpSyntaxError. */
export function parseRequestHead(buf: Buffer, end: number): RequestHead {
  const lines = buf.toString('latin1', 0, end - 4).split('\r\n');
  const m = REQUEST_LINE.exec(lines[0]);
  if (!m) throw new HttpSyntaxError('bad_request', 'request line');
  const minor = m[3] === '1' ? 1 : 0;
  const rawHeaders: string[] = [];
  let contentLength: number | null = null;
  let transferEncoding: string | null = null;
  let connection = '';
  let expectContinue = false;
  let proxyAuthorization: string | undefined;
  let hosts = 0;
  let upgradeHeader = false;
  for (let i = 1; i < lines.length; i++) {
    const h = HEADER_LINE.exec(lines[i]);
    // obs-fold (a line starting with a space), a space before the colon, a bare CR or LF, a control character.
    if (!h) throw new HttpSyntaxError('bad_request', lines[i].length === 0 || lines[i][0] === ' ' || lines[i][0] === '\t' ? 'obsolete line folding' : 'header line');
    const name = h[1];
    const value = h[2];
    rawHeaders.push(name, value);
    // Only the framing headers are looked at here (their first letters filter most names).
    const c = name.charCodeAt(0) | 0x20;
    if (c !== 0x63 && c !== 0x74 && c !== 0x68 && c !== 0x65 && c !== 0x70 && c !== 0x75) continue;
    switch (name.toLowerCase()) {
      case 'content-length':
        if (contentLength !== null) throw new HttpSyntaxError('bad_request', 'more than one Content-Length');
        if (!DIGITS.test(value)) throw new HttpSyntaxError('bad_request', 'Content-Length');
        contentLength = Number(value);
        break;
      case 'transfer-encoding':
        if (transferEncoding !== null) throw new HttpSyntaxError('bad_request', 'more than one Transfer-Encoding');
        transferEncoding = value;
        break;
      case 'connection':
        connection = connection ? `${connection},${value}` : value;
        break;
      case 'expect':
        expectContinue = value.toLowerCase() === '100-continue';
        break;
      case 'host':
        if (++hosts > 1) throw new HttpSyntaxError('bad_request', 'more than one Host');
        break;
      case 'proxy-authorization':
        proxyAuthorization = value;
        break;
      case 'upgrade':
        upgradeHeader = true;
        break;
    }
  }
  if (transferEncoding !== null) {
    if (contentLength !== null) throw new HttpSyntaxError('bad_request', 'Content-Length with Transfer-Encoding');
    if (minor === 0) throw new HttpSyntaxError('bad_request', 'Transfer-Encoding in HTTP/1.0');
    if (transferEncoding.toLowerCase() !== 'chunked') throw new HttpSyntaxError('bad_request', 'Transfer-Encoding other than chunked');
  }
  const keepAlive = minor === 1 ? !hasToken(connection, 'close') : hasToken(connection, 'keep-alive');
  const upgrade = upgradeHeader && hasToken(connection, 'upgrade');
  return { method: m[1], target: m[2], minor, rawHeaders, contentLength, chunked: transferEncoding !== null, keepAlive, expectContinue, upgrade, proxyAuthorization, size: end };
}

const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: ([^\r\n]*))?$/;

/** Parses a website's response head `buf[0, end)`; throws HttpSyntaxError for what has no defined framing. */
export function parseResponseHead(buf: Buffer, end: number): ResponseHead {
  const lines = buf.toString('latin1', 0, end - 4).split('\r\n');
  const m = STATUS_LINE.exec(lines[0]);
  if (!m) throw new HttpSyntaxError('bad_request', 'status line');
  const minor = m[1] === '1' ? 1 : 0;
  const rawHeaders: string[] = [];
  let contentLength: number | null = null;
  let transferEncoding: string | null = null;
  let connection = '';
  let setCookie: string[] | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if ((line[0] === ' ' || line[0] === '\t') && rawHeaders.length > 0) {
      // obs-fold in a response: replaced by a space (RFC 9112 §5.2).
      rawHeaders[rawHeaders.length - 1] += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    if (!TOKEN.test(name)) throw new HttpSyntaxError('bad_request', 'response header line');
    const value = line.slice(colon + 1).trim();
    rawHeaders.push(name, value);
    const c = name.charCodeAt(0) | 0x20;
    if (c !== 0x63 && c !== 0x74 && c !== 0x73) continue;
    switch (name.toLowerCase()) {
      case 'content-length': {
        if (!DIGITS.test(value) || (contentLength !== null && contentLength !== Number(value))) throw new HttpSyntaxError('bad_request', 'response Content-Length');
        contentLength = Number(value);
        break;
      }
      case 'transfer-encoding':
        transferEncoding = transferEncoding === null ? value : `${transferEncoding},${value}`;
        break;
      case 'connection':
        connection = connection ? `${connection},${value}` : value;
        break;
      case 'set-cookie':
        (setCookie ??= []).push(value);
        break;
    }
  }
  let chunked = false;
  let close = minor === 1 ? hasToken(connection, 'close') : !hasToken(connection, 'keep-alive');
  if (transferEncoding !== null) {
    // Transfer-Encoding wins over Content-Length (which is not passed on: the body is sent in another framing);
    // a body not ending in chunked is read until the close.
    if (contentLength !== null) {
      for (let i = rawHeaders.length - 2; i >= 0; i -= 2) if (rawHeaders[i].toLowerCase() === 'content-length') rawHeaders.splice(i, 2);
    }
    contentLength = null;
    const codings = transferEncoding.split(',');
    chunked = codings[codings.length - 1].trim().toLowerCase() === 'chunked';
    if (!chunked) close = true;
  }
  return { status: Number(m[2]), reason: m[3] ?? '', minor, rawHeaders, contentLength, chunked, close, setCookie, size: end };
}

const CRLF = Buffer.from('\r\n');
/** A chunk-size line: hex digits (at most 13: below 2^52), optional extensions without control characters. */
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,13})(?:;[\x20-\x7e\t]*)?$/;
const MAX_CHUNK_LINE = 4096;
const MAX_TRAILERS = 16 * 1024;

/**
 * Decodes a chunked body, strictly (a size line of hex digits, each chunk followed by CRLF,
 * trailers read and dropped). `push` takes the bytes that arrived, hands the data to
 * `onData` and returns how many bytes belong to the body (the rest is the next message).
 */
export class ChunkedDecoder {
  private state: 'size' | 'data' | 'data-end' | 'trailers' | 'done' = 'size';
  private remaining = 0;
  /** The bytes of a size line, the CRLF after data, or trailers not complete yet. */
  private line: Buffer | null = null;
  private trailerBytes = 0;

  get done(): boolean {
    return this.state === 'done';
  }

  push(chunk: Buffer, onData: (data: Buffer) => void): number {
    let at = 0;
    while (at < chunk.length && this.state !== 'done') {
      if (this.state === 'data') {
        const n = Math.min(this.remaining, chunk.length - at);
        onData(at === 0 && n === chunk.length ? chunk : chunk.subarray(at, at + n));
        at += n;
        this.remaining -= n;
        if (this.remaining === 0) this.state = 'data-end';
        continue;
      }
      const lf = chunk.indexOf(0x0a, at);
      const piece = chunk.subarray(at, lf < 0 ? chunk.length : lf + 1);
      const line = this.line ? Buffer.concat([this.line, piece]) : piece;
      at += piece.length;
      if (lf < 0) {
        if (line.length > (this.state === 'trailers' ? MAX_TRAILERS : MAX_CHUNK_LINE)) throw new HttpSyntaxError('bad_request', 'chunk line too long');
        // Kept for the next chunk: a copy, as `chunk` may view a read buffer the next read overwrites.
        this.line = line === piece ? Buffer.from(piece) : line;
        continue;
      }
      this.line = null;
      if (line.length < 2 || line[line.length - 2] !== 0x0d) throw new HttpSyntaxError('bad_request', 'bare LF in chunked body');
      const text = line.toString('latin1', 0, line.length - 2);
      if (this.state === 'data-end') {
        if (text.length !== 0) throw new HttpSyntaxError('bad_request', 'chunk data longer than its size');
        this.state = 'size';
      } else if (this.state === 'size') {
        const m = CHUNK_SIZE.exec(text);
        if (!m) throw new HttpSyntaxError('bad_request', 'chunk size');
        this.remaining = parseInt(m[1], 16);
        this.state = this.remaining === 0 ? 'trailers' : 'data';
      } else {
        this.trailerBytes += line.length;
        if (this.trailerBytes > MAX_TRAILERS) throw new HttpSyntaxError('bad_request', 'trailers too long');
        if (text.length === 0) this.state = 'done';
        else if (!HEADER_LINE.test(text)) throw new HttpSyntaxError('bad_request', 'trailer line');
      }
    }
    return at;
  }
}

/** One chunk of a chunked body as sent: size line, data, CRLF. */
export function chunkOf(data: Buffer): Buffer[] {
  return [Buffer.from(`${data.length.toString(16)}\r\n`, 'latin1'), data, CRLF];
}

export const LAST_CHUNK = Buffer.from('0\r\n\r\n', 'latin1');

/** An absolute-form target as the WHATWG URL parser splits it: scheme, host (lowercase), port, path with query. */
export interface AbsoluteTarget {
  scheme: 'http' | 'https';
  host: string;
  port: number;
  path: string;
}

/**
 * `http://host[:port]/path?query` in the spelling the WHATWG URL parser leaves unchanged
 * (the common case), split without building a URL object (a URL parse per request was 1.5%
 * of the proxy's CPU). Host: lowercase letters, digits, dots and dashes with a last label not
 * numeric (no IPv4 forms, no IDNA), or a dotted-decimal IPv4 address; port: 1-5 digits up
 * to 65535; path: no character the parser would encode or reinterpret (space, `"`, `#`,
 * `'`, `<`, `>`, `\`, backtick, braces), no dot segment, no empty query. Anything else answers null:
 * the caller parses it with `new URL`, so both give the same answer for every target.
 */
export function fastAbsoluteTarget(raw: string): AbsoluteTarget | null {
  const m = FAST_TARGET.exec(raw);
  if (m === null) return null;
  const host = m[2];
  const lastLabel = host.slice(host.lastIndexOf('.') + 1);
  if (/^\d/.test(lastLabel) && !DOTTED_QUAD.test(host)) return null;
  if (host.includes('xn--') || host.includes('..')) return null;
  const path = m[4];
  if (DOT_SEGMENT.test(path) || path.endsWith('?')) return null;
  const scheme = m[1] === 'https' ? 'https' : 'http';
  const port = m[3] === undefined ? (scheme === 'https' ? 443 : 80) : Number(m[3]);
  if (port > 65535) return null;
  return { scheme, host, port, path };
}

const FAST_TARGET = /^(https?):\/\/([a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?)(?::(\d{1,5}))?(\/[\x21\x24-\x26\x28-\x3b\x3d\x3f-\x5b\x5d-\x5f\x61-\x7a\x7c\x7e]*)$/;
const DOTTED_QUAD = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
/** A `.` or `..` segment, also percent-encoded, before the query: the URL parser removes it. */
const DOT_SEGMENT = /\/(?:\.|%2e)(?:\.|%2e)?(?:[/?]|$)/i;
