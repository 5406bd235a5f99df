import type { OutgoingHttpHeaders } from 'node:http';
import * as net from 'node:net';
import * as tls from 'node:tls';
import { Readable, Writable } from 'node:stream';
import { ChunkedDecoder, chunkOf, headEnd, LAST_CHUNK, MAX_HEADER_BYTES, parseResponseHead, ResponseHead } from './http1';

/** Kept-alive connections per (address, port) of one exit, at most. */
const MAX_IDLE_PER_ORIGIN = 256;
/** An idle kept-alive connection is closed after this long (a website closing one first is retried once, see the forwarder). */
const IDLE_MS = 30_000;

/** What each body stream of the data path buffers before it pushes back (one socket read). */
export const BODY_BUFFER_BYTES = 64 * 1024;

function ignore(): void {}

/** Kept TLS sessions (one per origin), at most: emptied when full. */
const MAX_TLS_SESSIONS = 10_000;

/** How an https:// origin is reached: over TLS, its certificate checked for `servername` (none for an IP literal). */
export interface UpstreamTls {
  servername: string | undefined;
  rejectUnauthorized: boolean;
  /** Node's roots plus PROXY_UPSTREAM_CA_FILE's, built once; undefined: Node's defaults. */
  secureContext: tls.SecureContext | undefined;
}

/** Read buffers given back by the responses that held them, kept for the next connection that needs one, at most. */
const MAX_SPARE_READ_BUFFERS = 64;
/** Lent bytes shorter than this are copied instead (Buffer's shared pool makes those copies cheap). */
const COPY_BELOW_BYTES = Buffer.poolSize >>> 1;

/** Who may still reference the bytes of a read buffer it was lent. */
interface LentHolder {
  /** Nothing it was given waits in it or in its destination any more: the buffer may be read into again. */
  holdsNothing(): boolean;
}

/** Who a pooled connection's events go to: the exchange using it, or its pool while it is idle. */
interface SocketOwner {
  /**
   * Bytes from the website. `lent`: they view the connection's read buffer, which the next
   * read would overwrite, so whatever keeps them past this call keeps a copy, or answers who
   * keeps the view itself: the connection then reads into another buffer, and gives this one
   * back to the pool once that holder holds nothing. Without `lent` the chunk is the owner's.
   */
  onData(chunk: Buffer, lent: boolean): LentHolder | null;
  /** The website ended or closed the connection. */
  onEnd(): void;
  onError(e: Error): void;
}

/** A connection of an UpstreamPool: its listeners are added once, and pass its events to its owner of the moment. */
interface PooledSocket extends net.Socket {
  owner: SocketOwner | null;
  /** The pool's list it idles in (its origin's), while idle. */
  idleIn: net.Socket[] | null;
}

/**
 * The kept-alive connections of one local exit (its source address, or the default route)
 * to websites, by origin: the data path's replacement for `http.Agent` and `https.Agent`
 * (whose request objects cost about a fifth of the CPU per request). Each connection gets
 * its listeners (and its idle timer) once, when it is opened: handing it from one exchange
 * to the next changes its owner, not its listeners. A TLS connection resumes the last
 * session of its origin (an abbreviated handshake: no certificate chain to verify).
 */
export class UpstreamPool {
  private readonly idle = new Map<string, PooledSocket[]>();
  /** The latest TLS session of each origin (by pool key), for the next connection to it. */
  private readonly sessions = new Map<string, Buffer>();
  /** Read buffers no response references any more (see connectPlain). */
  private readonly spareReadBuffers: Buffer[] = [];

  constructor(private readonly localAddress: string | undefined) {}

  /** A kept-alive connection to `address:port` (over TLS with `secure`), or a new one; its events go to `owner`. */
  take(key: string, address: string, port: number, owner: SocketOwner, secure: UpstreamTls | null): { socket: net.Socket; reused: boolean } {
    const list = this.idle.get(key);
    while (list && list.length > 0) {
      const socket = list.pop()!;
      if (list.length === 0) this.idle.delete(key);
      socket.idleIn = null;
      if (socket.destroyed) continue;
      socket.owner = owner;
      return { socket, reused: true };
    }
    const socket = (secure === null ? this.connectPlain(address, port) : this.connectTls(key, address, port, secure)) as PooledSocket;
    socket.owner = owner;
    socket.idleIn = null;
    socket.setNoDelay(true);
    if (secure !== null) socket.on('data', (chunk: Buffer) => socket.owner?.onData(chunk, false));
    socket.on('end', () => socket.owner?.onEnd());
    socket.on('close', () => socket.owner?.onEnd());
    // Always listened to: a late error (no owner) is not unhandled.
    socket.on('error', (e: Error) => socket.owner?.onError(e));
    // Only an idle connection is closed for inactivity (an exchange has its own timeouts in the forwarder).
    socket.setTimeout(IDLE_MS, () => {
      if (socket.idleIn !== null) this.drop(key, socket);
    });
    return { socket, reused: false };
  }

  /**
   * A TCP connection that reads into a buffer of its own, reused read after read, rather than
   * into a new 64 KiB ArrayBuffer per read (Node's default): at 100 KB answers those were 200+
   * MB/s of external memory, which V8 frees only by full mark-compacts (docs/proxy.md, issue
   * 20). When the owner keeps a read's bytes as they are (a response's first bytes, which wait
   * for the forwarder), the connection reads on into a spare buffer, and the lent one becomes
   * a spare again once its holder has written it out (seen at the connection's next read).
   */
  private connectPlain(address: string, port: number): net.Socket {
    const reader = { buffer: this.spareReadBuffer(), socket: null as PooledSocket | null, lent: null as Buffer | null, lentTo: null as LentHolder | null };
    const socket = net.connect({
      host: address,
      port,
      localAddress: this.localAddress,
      onread: {
        // Asked again after every read: the buffer the next read goes into.
        buffer: () => reader.buffer,
        callback: (n: number, buffer: Uint8Array) => {
          if (reader.lentTo?.holdsNothing()) {
            if (this.spareReadBuffers.length < MAX_SPARE_READ_BUFFERS) this.spareReadBuffers.push(reader.lent!);
            reader.lent = reader.lentTo = null;
          }
          const holder = reader.socket?.owner?.onData(Buffer.from(buffer.buffer, buffer.byteOffset, n), true) ?? null;
          if (holder !== null) {
            // (a buffer lent before and still held is left to the garbage collector)
            reader.lent = reader.buffer;
            reader.lentTo = holder;
            reader.buffer = this.spareReadBuffer();
          }
          // (false would stop the reading: the owner pauses the socket itself when its reader has enough)
          return true;
        },
      },
    }) as PooledSocket;
    reader.socket = socket;
    return socket;
  }

  private spareReadBuffer(): Buffer {
    return this.spareReadBuffers.pop() ?? Buffer.allocUnsafeSlow(BODY_BUFFER_BYTES);
  }

  private connectTls(key: string, address: string, port: number, secure: UpstreamTls): tls.TLSSocket {
    // tls.connect passes localAddress on to its TCP connection (its typings do not list it).
    const options: tls.ConnectionOptions & { localAddress?: string } = { host: address, port, localAddress: this.localAddress, ...secure, session: this.sessions.get(key) };
    const socket = tls.connect(options);
    socket.on('session', (session: Buffer) => {
      if (this.sessions.size >= MAX_TLS_SESSIONS) this.sessions.clear();
      this.sessions.set(key, session);
    });
    return socket;
  }

  /** A connection whose exchange ended cleanly, kept for the next request to the same origin. */
  give(key: string, socket: net.Socket): void {
    const pooled = socket as PooledSocket;
    let list = this.idle.get(key);
    if (!list) this.idle.set(key, (list = []));
    if (list.length >= MAX_IDLE_PER_ORIGIN) return void socket.destroy();
    // Bytes, an end or a close on an idle connection are no answer to anything: it is not reused.
    pooled.owner = { onData: () => (this.drop(key, pooled), null), onEnd: () => this.drop(key, pooled), onError: () => this.drop(key, pooled) };
    pooled.idleIn = list;
    list.push(pooled);
  }

  private drop(key: string, socket: PooledSocket): void {
    socket.owner = null;
    socket.destroy();
    const list = socket.idleIn;
    socket.idleIn = null;
    if (list === null) return;
    const at = list.indexOf(socket);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0 && this.idle.get(key) === list) this.idle.delete(key);
  }

  close(): void {
    for (const list of this.idle.values()) for (const s of list) s.destroy();
    this.idle.clear();
    this.sessions.clear();
  }
}

/** Where a response body is piped: a writable stream, and the socket it writes to (ServerResponse's and PlainResponse's `socket`). */
type Sink = Writable & { readonly socket?: { readonly writableLength: number } | null };

/**
 * A website's response on the plain-HTTP data path: the head's fields the forwarder reads,
 * the body as a stream with back-pressure. A chunk it emits may view a read buffer that is
 * reused once the stream and its pipe's destination hold nothing: a 'data' listener beside
 * the pipe must copy what it keeps.
 */
export class UpstreamResponse extends Readable implements LentHolder {
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly rawHeaders: string[];
  readonly headers: { 'set-cookie'?: string[]; 'content-length'?: string };
  /** The whole body has arrived (it may still wait in the buffer), as IncomingMessage's `complete`. */
  complete = false;
  /** Where the body is piped (the client's answer), once it is. */
  private sink: Sink | null = null;
  /** A lent chunk was pushed as it was and may still be referenced: its read buffer must not be read into. */
  private keepsLent = false;

  constructor(
    head: ResponseHead,
    private readonly onRead: () => void,
    private readonly onDestroy: () => void,
  ) {
    // A socket read is up to 64 KiB: a smaller buffer would pause and resume the socket at every read.
    super({ highWaterMark: BODY_BUFFER_BYTES });
    this.statusCode = head.status;
    this.statusMessage = head.reason;
    this.rawHeaders = head.rawHeaders;
    this.headers = { 'set-cookie': head.setCookie, 'content-length': head.contentLength === null ? undefined : String(head.contentLength) };
    // As Node's IncomingMessage: a failure is an 'error' for whoever listens (the forwarder, once it streams), never an unhandled one.
    this.on('error', ignore);
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    this.sink = destination as unknown as Sink;
    return super.pipe(destination, options);
  }

  /**
   * Pushes bytes that view a reused read buffer (SocketOwner's `lent`). They go straight out
   * when the stream flows into a destination that holds nothing: the socket's write then
   * completes at once, or is queued, which keeps the view. Else (before the pipe, while the
   * forwarder reads the head or a prefix, or while the client's socket drains) they wait in
   * the stream as they are, which keeps the view too, or as a copy when they are few or
   * not `lendable`.
   */
  pushLent(chunk: Buffer, lendable: boolean): boolean {
    if (this.readableFlowing === true && this.sink?.writable === true && this.holdsNothing()) {
      const more = this.push(chunk);
      if (!this.holdsNothing()) this.keepsLent = true;
      return more;
    }
    if (!lendable || chunk.length < COPY_BELOW_BYTES) return this.push(Buffer.from(chunk));
    this.keepsLent = true;
    return this.push(chunk);
  }

  /** Whether a chunk pushed by pushLent since the last call is kept as it was (the reader then reads into another buffer). */
  takeKeepsLent(): boolean {
    const kept = this.keepsLent;
    this.keepsLent = false;
    return kept;
  }

  /** (LentHolder) Nothing waits in the stream, in the destination, or on its socket: every chunk is written out. */
  holdsNothing(): boolean {
    const sink = this.sink;
    return this.readableLength === 0 && sink !== null && sink.writableLength === 0 && (sink.socket?.writableLength ?? 0) === 0;
  }

  override _read(): void {
    this.onRead();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.onDestroy();
    cb(err);
  }
}

function hangUp(): Error {
  // What Node's http client says for a connection closed before any answer (errorCodeOf: socket_closed_remotely).
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

const BODYLESS_STATUS = (s: number) => s === 204 || s === 304;

/**
 * One HTTP/1.1 request to a website (plain or over TLS) on a kept-alive connection of the exit's pool: the
 * head is written together with the first body bytes (one write for a request whose body
 * was kept), a body of unknown length is sent chunked, and the response head is parsed
 * just enough for its framing (Content-Length, chunked, or until the close). Emits
 * `response` (an UpstreamResponse) like Node's ClientRequest, and `error` before it.
 */
export class UpstreamRequest extends Writable implements SocketOwner {
  readonly reusedSocket: boolean;
  /** The connection, until the exchange ends (given back to the pool, or destroyed). */
  private socket: net.Socket | null;
  /** The head, until it is written with the first bytes. */
  private head: string | null;
  private readonly hasLength: boolean;
  private chunked = false;
  private requestDone = false;
  private received: Buffer | null = null;
  private response: UpstreamResponse | null = null;
  private responseHead: ResponseHead | null = null;
  private remaining = 0;
  private decoder: ChunkedDecoder | null = null;
  private responseDone = false;
  /** Bytes after the response's end: the website broke the framing, the connection is not reused. */
  private trailing = false;

  constructor(
    private readonly pool: UpstreamPool,
    private readonly key: string,
    address: string,
    port: number,
    private readonly method: string,
    path: string,
    headers: OutgoingHttpHeaders,
    host: string,
    secure: UpstreamTls | null,
  ) {
    // Not destroyed once the request is sent: the connection still carries the response.
    super({ autoDestroy: false, highWaterMark: BODY_BUFFER_BYTES });
    let head = `${method} ${path} HTTP/1.1\r\n`;
    let hasHost = false;
    let hasLength = false;
    for (const name in headers) {
      const value = headers[name];
      if (value === undefined) continue;
      const lower = name.length === 4 || name.length === 14 ? name.toLowerCase() : '';
      if (lower === 'host') hasHost = true;
      else if (lower === 'content-length') hasLength = true;
      if (Array.isArray(value)) for (const v of value) head += `${name}: ${v}\r\n`;
      else head += `${name}: ${value}\r\n`;
    }
    if (!hasHost) head = `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n${head.slice(head.indexOf('\r\n') + 2)}`;
    this.head = head;
    this.hasLength = hasLength;
    const { socket, reused } = pool.take(key, address, port, this, secure);
    this.socket = socket;
    this.reusedSocket = reused;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, cb: (err?: Error | null) => void): void {
    // An empty write (`end(emptyBody)`) sends nothing: as a chunk it would be the last one.
    if (chunk.length === 0) return cb();
    if (this.head !== null && !this.hasLength) {
      // A body of unknown length (a streamed one without Content-Length) is sent chunked.
      this.chunked = true;
      this.head += 'Transfer-Encoding: chunked\r\n';
    }
    const pieces = this.chunked ? chunkOf(chunk) : [chunk];
    if (this.head !== null) {
      pieces.unshift(Buffer.from(`${this.head}\r\n`, 'latin1'));
      this.head = null;
    }
    this.send(pieces.length === 1 ? pieces[0] : Buffer.concat(pieces), cb);
  }

  override _final(cb: (err?: Error | null) => void): void {
    const last = this.head !== null ? Buffer.from(`${this.head}\r\n`, 'latin1') : this.chunked ? LAST_CHUNK : null;
    this.head = null;
    this.requestDone = true;
    if (last) this.send(last, cb);
    else cb();
    if (this.responseDone) this.release();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    if (!this.responseDone) this.drop();
    cb(err);
  }

  private send(data: Buffer, cb: () => void): void {
    const socket = this.socket;
    // The exchange is over (the website answered before the whole body): the rest is dropped.
    if (socket === null || socket.destroyed) return cb();
    if (socket.write(data)) cb();
    else socket.once('drain', cb);
  }

  /** (SocketOwner) Bytes from the website. */
  onData(chunk: Buffer, lent: boolean): LentHolder | null {
    this.read(chunk, lent);
    return lent && this.response !== null && this.response.takeKeepsLent() ? this.response : null;
  }

  private read(chunk: Buffer, lent: boolean): void {
    if (this.responseHead === null) {
      const buf = this.received ? Buffer.concat([this.received, chunk]) : chunk;
      let end: number;
      let head: ResponseHead;
      try {
        end = headEnd(buf, MAX_HEADER_BYTES);
        // A head not complete yet waits for the next read: a copy when the read buffer is lent.
        if (end < 0) return void (this.received = lent && buf === chunk ? Buffer.from(buf) : buf);
        head = parseResponseHead(buf, end);
      } catch (e) {
        return this.fail(Object.assign(new Error(`invalid response from the website: ${(e as Error).message}`), { code: 'HPE_INVALID_RESPONSE' }));
      }
      this.received = null;
      const rest = buf.subarray(end);
      // Informational answers (100 Continue, 103 Early Hints) are skipped; the final one follows.
      if (head.status >= 100 && head.status < 200) {
        if (head.status === 101) return this.fail(Object.assign(new Error('the website switched protocols'), { code: 'HPE_INVALID_RESPONSE' }));
        return rest.length ? this.read(rest, lent && buf === chunk) : undefined;
      }
      this.responseHead = head;
      const response = new UpstreamResponse(
        head,
        () => this.socket?.resume(),
        () => {
          if (!this.responseDone) this.drop();
        },
      );
      this.response = response;
      this.emit('response', response);
      if (this.method === 'HEAD' || BODYLESS_STATUS(head.status) || head.contentLength === 0) return this.complete(rest.length > 0);
      if (head.chunked) this.decoder = new ChunkedDecoder();
      else if (head.contentLength !== null) this.remaining = head.contentLength;
      if (rest.length) this.body(rest, lent && buf === chunk);
      return;
    }
    this.body(chunk, lent);
  }

  private body(chunk: Buffer, lent: boolean): void {
    const response = this.response!;
    const head = this.responseHead!;
    // Lent bytes wait as they are only when more of the body follows (a Content-Length not
    // reached yet): a body that ends here may be sent without a pipe (the forwarder's
    // whole-body path), so its holder could never tell that the buffer is free again.
    const lendable = head.contentLength !== null && this.remaining > chunk.length;
    const push = (data: Buffer) => {
      if (!(lent ? response.pushLent(data, lendable) : response.push(data))) this.socket?.pause();
    };
    if (this.decoder) {
      let used: number;
      try {
        used = this.decoder.push(chunk, push);
      } catch (e) {
        return void response.destroy(Object.assign(new Error(`invalid chunked body from the website: ${(e as Error).message}`), { code: 'HPE_INVALID_CHUNK_SIZE' }));
      }
      if (this.decoder.done) this.complete(used < chunk.length);
    } else if (head.contentLength !== null) {
      const n = Math.min(this.remaining, chunk.length);
      push(n === chunk.length ? chunk : chunk.subarray(0, n));
      this.remaining -= n;
      if (this.remaining === 0) this.complete(n < chunk.length);
    } else push(chunk);
  }

  /** The response's body is complete: the stream ends, the connection goes back to the pool once the request is sent. */
  private complete(trailing: boolean): void {
    this.responseDone = true;
    this.trailing = trailing;
    this.response!.complete = true;
    this.response!.push(null);
    if (this.requestDone) this.release();
  }

  private release(): void {
    const socket = this.detach();
    if (socket === null) return;
    if (this.trailing || this.responseHead!.close || socket.destroyed) socket.destroy();
    else {
      socket.resume();
      this.pool.give(this.key, socket);
    }
  }

  /** The connection is not reused (a failure, or the response was dropped before its end). */
  private drop(): void {
    this.detach()?.destroy();
  }

  /** The connection, no longer this exchange's (its listeners off), or null when it was already let go. */
  private detach(): net.Socket | null {
    const socket = this.socket;
    if (socket === null) return null;
    this.socket = null;
    (socket as PooledSocket).owner = null;
    return socket;
  }

  private fail(e: Error): void {
    if (this.response) this.response.destroy(e);
    else this.destroy(e);
  }

  /** (SocketOwner) A kept-alive connection the website closed meanwhile fails as a hang-up (the forwarder retries those once). */
  onError(e: Error & { code?: string }): void {
    this.fail(this.reusedSocket && !this.response && e.code === 'EPIPE' ? hangUp() : e);
  }

  /** (SocketOwner) The website ended or closed the connection. */
  onEnd(): void {
    if (this.responseDone) return;
    // A body without length ends with the connection.
    if (this.response && this.responseHead!.contentLength === null && !this.responseHead!.chunked) {
      this.detach();
      this.responseDone = true;
      this.response.complete = true;
      this.response.push(null);
      return;
    }
    this.fail(this.response ? Object.assign(new Error('the website closed the connection during the response'), { code: 'ECONNRESET' }) : hangUp());
  }
}
