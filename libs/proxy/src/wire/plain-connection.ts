import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { ChunkedDecoder, chunkOf, headEnd, HttpSyntaxError, LAST_CHUNK, parseRequestHead, RequestHead } from './http1';
import { BODY_BUFFER_BYTES } from './upstream';

/** A client's kept-alive connection is closed after this long without a request (Node's http server default). */
const IDLE_MS = 5_000;

function ignore(): void {}

/** What a PlainConnection hands on. */
export interface PlainHandler {
  /** A request in absolute form (`GET http://site/ HTTP/1.1`): answered through `res` (`body`: one shared ended stream when the head announces none). */
  request(head: RequestHead, body: Readable, res: PlainResponse): void;
  /** On the proxy port, anything else (CONNECT, origin form): the connection goes to the node:http server, `bytes` first (a tunnel's handler has none). */
  handOff?(socket: Socket, bytes: Buffer): void;
  /** A request the parser refused: the answer's bytes (the connection closes after them). */
  refusal(e: HttpSyntaxError): string;
}

/** The body of a client's request on the plain-HTTP data path: read with back-pressure (the socket pauses while the forwarder does not read). */
export class PlainRequest extends Readable {
  constructor(private readonly conn: PlainConnection) {
    super({ highWaterMark: BODY_BUFFER_BYTES });
  }
  override _read(): void {
    this.conn.resumeBody();
  }
}

/**
 * The answer to one request on the plain-HTTP data path: `writeHead` (like ServerResponse's,
 * with a flat header list) keeps the head, which leaves with the first body bytes in one
 * write. The framing follows the headers: Content-Length as given, else chunked to an
 * HTTP/1.1 client or until the close to an HTTP/1.0 one; no body for HEAD, 204 and 304.
 */
export class PlainResponse extends Writable {
  headersSent = false;
  /** Whether the connection stays open after this answer. */
  keepAlive: boolean;
  private head: Buffer | null = null;
  private framing: 'length' | 'chunked' | 'close' | 'none' = 'length';

  constructor(
    private readonly conn: PlainConnection,
    private readonly request: RequestHead,
  ) {
    super({ highWaterMark: BODY_BUFFER_BYTES });
    this.keepAlive = request.keepAlive;
    // A write after the end (the answer was already given) has nobody to tell.
    this.on('error', ignore);
  }

  /** The client's connection (as ServerResponse's `socket`): what it has not sent yet tells whether a body chunk is still referenced. */
  get socket(): Socket {
    return this.conn.socket;
  }

  writeHead(status: number, reason: string | undefined, headers: string[]): this {
    if (this.headersSent) return this;
    let text = `HTTP/1.1 ${status} ${reason || STATUS_CODES[status] || ''}\r\n`;
    let length = false;
    for (let i = 0; i < headers.length; i += 2) {
      const name = headers[i];
      if (name.length === 14 && name.toLowerCase() === 'content-length') length = true;
      text += `${name}: ${headers[i + 1]}\r\n`;
    }
    if (this.request.method === 'HEAD' || status === 204 || status === 304) this.framing = 'none';
    else if (length) this.framing = 'length';
    else if (this.request.minor === 1) {
      this.framing = 'chunked';
      text += 'Transfer-Encoding: chunked\r\n';
    } else {
      this.framing = 'close';
      this.keepAlive = false;
    }
    if (!this.keepAlive) text += 'Connection: close\r\n';
    else if (this.request.minor === 0) text += 'Connection: keep-alive\r\n';
    this.head = Buffer.from(`${text}\r\n`, 'latin1');
    this.headersSent = true;
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (!this.headersSent) this.writeHead(200, undefined, []);
    // An empty write sends nothing: as a chunk it would be the last one.
    if (chunk.length === 0) return cb();
    const pieces = this.framing === 'none' ? [] : this.framing === 'chunked' ? chunkOf(chunk) : [chunk];
    if (this.head) {
      pieces.unshift(this.head);
      this.head = null;
    }
    if (pieces.length === 0) return cb();
    this.conn.write(pieces.length === 1 ? pieces[0] : Buffer.concat(pieces), cb);
  }

  override _final(cb: (err?: Error | null) => void): void {
    if (!this.headersSent) this.writeHead(200, undefined, []);
    const pieces: Buffer[] = [];
    if (this.head) pieces.push(this.head);
    if (this.framing === 'chunked') pieces.push(LAST_CHUNK);
    this.head = null;
    const done = () => {
      cb();
      this.conn.answered(this);
    };
    if (pieces.length === 0) done();
    else this.conn.write(pieces.length === 1 ? pieces[0] : Buffer.concat(pieces), done);
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    // Destroyed before its end (the forwarder cut it, or the client went away): the connection goes.
    if (!this.writableFinished) this.conn.abort();
    cb(err);
  }
}

/**
 * One client connection of the plain-HTTP data path: reads request heads with the strict
 * parser (http1.ts), one request at a time (pipelined ones wait in the buffer), the body
 * deframed (Content-Length or chunked) into a PlainRequest, and the answer written by a
 * PlainResponse. A request the parser refuses gets our 400/431 and the connection closes.
 * On the proxy port, a CONNECT or an origin-form request hands the connection to the
 * node:http server; inside a CONNECT tunnel (`inTunnel`: the client's requests, decrypted
 * or plain) every request goes to the handler (which sends it to the tunnel's target), and
 * a CONNECT is refused with our 400.
 */
export class PlainConnection {
  /** Bytes received and not parsed yet (a partial head, or pipelined requests). */
  private pending: Buffer | null = null;
  /** The request whose body is arriving. */
  private body: PlainRequest | null = null;
  private remaining = 0;
  private decoder: ChunkedDecoder | null = null;
  /** The answer in progress. */
  private response: PlainResponse | null = null;
  private done = false;

  constructor(
    readonly socket: Socket,
    private readonly handler: PlainHandler,
    private readonly onGone: (c: PlainConnection) => void,
    private readonly inTunnel = false,
  ) {
    socket.setNoDelay(true);
    // One inactivity timer for the connection's life (every read and write pushes it back):
    // it closes the connection only when no request is in flight, so a request waiting for
    // its website is not cut, and no timer is set and cleared per request.
    socket.setTimeout(IDLE_MS, () => {
      if (this.idle) socket.destroy();
    });
    socket.on('data', this.onData);
    socket.on('error', ignore);
    socket.on('close', this.onClose);
  }

  /** No request in flight (what a shutdown closes at once). */
  get idle(): boolean {
    return this.response === null && this.body === null;
  }

  destroy(): void {
    this.socket.destroy();
  }

  write(data: Buffer, cb: () => void): void {
    if (this.socket.destroyed) return;
    if (this.socket.write(data)) cb();
    else this.socket.once('drain', cb);
  }

  resumeBody(): void {
    if (this.body !== null) this.socket.resume();
  }

  /** Cuts the connection, unless it is already ending with a refusal being written out. */
  abort(): void {
    if (!this.socket.writableEnded) this.socket.destroy();
  }

  /** The answer was written out: the next request, once this one's body is in (a body nobody read is drained). */
  answered(res: PlainResponse): void {
    if (this.response !== res) return;
    this.response = null;
    if (!res.keepAlive) return void this.socket.end();
    if (this.body !== null) this.body.resume();
    else this.next();
  }

  private readonly onData = (chunk: Buffer): void => {
    if (this.body !== null) {
      const rest = this.feedBody(chunk);
      if (rest === null || rest.length === 0) return;
      chunk = rest;
    }
    this.pending = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    if (this.response === null && this.body === null) this.next();
    // Pipelined requests wait for the answer in progress; past a head's worth, the client waits too.
    else if (this.pending.length > 1024 * 1024) this.socket.pause();
  };

  private next(): void {
    this.socket.resume();
    const buf = this.pending;
    if (buf === null || this.done) return;
    let head: RequestHead;
    try {
      const end = headEnd(buf);
      if (end < 0) return;
      head = parseRequestHead(buf, end);
    } catch (e) {
      if (!(e instanceof HttpSyntaxError)) throw e;
      return this.refuse(e);
    }
    if (this.inTunnel) {
      if (head.method === 'CONNECT') return this.refuse(new HttpSyntaxError('bad_request', 'CONNECT inside a tunnel'));
    } else if (!ABSOLUTE_HTTP.test(head.target)) return this.handOff(buf);
    // WebSockets and other upgrades are not forwarded (they would bypass every check): closed at once.
    if (head.upgrade) return void this.socket.destroy();
    const rest = buf.subarray(head.size);
    this.pending = null;
    const res = new PlainResponse(this, head);
    this.response = res;
    if (head.chunked) {
      this.decoder = new ChunkedDecoder();
      this.body = new PlainRequest(this);
    } else if (head.contentLength !== null && head.contentLength > 0) {
      this.remaining = head.contentLength;
      this.body = new PlainRequest(this);
    }
    if (head.expectContinue && this.body !== null) this.socket.write('HTTP/1.1 100 Continue\r\n\r\n');
    this.handler.request(head, this.body ?? NO_BODY, res);
    if (rest.length) this.onData(rest);
  }

  /** Feeds body bytes to the request in progress; returns what follows its end (the next request), or null. */
  private feedBody(chunk: Buffer): Buffer | null {
    const body = this.body!;
    const push = (data: Buffer) => {
      if (!body.push(data)) this.socket.pause();
    };
    let used: number;
    if (this.decoder) {
      try {
        used = this.decoder.push(chunk, push);
      } catch (e) {
        if (!(e instanceof HttpSyntaxError)) throw e;
        this.refuse(e);
        return null;
      }
      if (!this.decoder.done) return null;
      this.decoder = null;
    } else {
      used = Math.min(this.remaining, chunk.length);
      push(used === chunk.length ? chunk : chunk.subarray(0, used));
      this.remaining -= used;
      if (this.remaining > 0) return null;
    }
    this.body = null;
    body.push(null);
    if (this.response === null) {
      // The answer went out before the body was in: on to the next request.
      const rest = chunk.subarray(used);
      if (rest.length) this.pending = this.pending ? Buffer.concat([this.pending, rest]) : rest;
      this.next();
      return null;
    }
    return chunk.subarray(used);
  }

  /** Our 400/431 and the close; a request in progress (a bad chunk in its body) is cut if its answer has started. */
  private refuse(e: HttpSyntaxError): void {
    this.done = true;
    this.pending = null;
    const res = this.response;
    if (res?.headersSent) return void this.socket.destroy();
    this.socket.end(this.handler.refusal(e), () => this.socket.destroy());
    this.body?.destroy();
    res?.destroy();
  }

  private handOff(bytes: Buffer): void {
    this.done = true;
    this.pending = null;
    this.socket.off('data', this.onData);
    this.socket.off('close', this.onClose);
    this.socket.setTimeout(0);
    this.socket.removeAllListeners('timeout');
    this.onGone(this);
    this.handler.handOff?.(this.socket, bytes);
  }

  private readonly onClose = (): void => {
    this.done = true;
    this.body?.destroy();
    this.response?.destroy();
    this.onGone(this);
  };
}

const ABSOLUTE_HTTP = /^https?:\/\//i;

/**
 * The body of every request without one (most): one ended stream for all of them, not a
 * stream object per request. Nobody reads it (the forwarder reads no body when the head
 * announces none); at most it is resumed, which ends it once and then does nothing.
 */
const NO_BODY = new Readable({ read: ignore });
NO_BODY.push(null);
