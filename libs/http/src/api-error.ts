import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { IngestError } from './json-lines';

/**
 * Seconds a client is told to wait (Retry-After) before it retries a request answered 503
 * because something it needs is momentarily away: the views lag behind the log (a projector
 * restarting), no worker answered (workers restarting), the log refused an append. Long
 * enough for a restarted process to come back, short enough for a client to carry on. The
 * extraction API's 429 (queries in flight over a limit) and a /readyz that says "not ready"
 * carry the same delay: batches take seconds, and the extraction client retries 429s forever.
 */
export const RETRY_AFTER_SECONDS = 5;

/**
 * An error answer of any API: a status and a one-line message; each app's filter renders it
 * in that API's style. `retryAfterSeconds`: the answer carries Retry-After (whatever the style).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
  /**
   * 503 with Retry-After: the one answer of every API for "retry later" (the documented
   * retry signal of a fleet's clients while a role restarts or its views lag).
   */
  static unavailable(message: string, retryAfterSeconds = RETRY_AFTER_SECONDS) {
    return new ApiError(503, `Service Unavailable: ${message}`, retryAfterSeconds);
  }
  static notFound() {
    return new ApiError(404, 'Not Found');
  }
  static unauthorized() {
    return new ApiError(401, 'Unauthorized');
  }
  static forbidden() {
    return new ApiError(403, 'Forbidden');
  }
  static badRequest(message: string) {
    return new ApiError(400, message);
  }
}

type Translate = (e: unknown) => ApiError | null;

/** An error answer as it goes on the wire: status, headers and body, in one API's style. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  /** null: no body and no content type (the extraction API's answer when nothing can be described). */
  body: string | null;
}

/** How an API words an error; `url` is the request target ('' when the request could not even be parsed). */
export type RenderError = (error: ApiError, url: string) => ErrorAnswer;

/**
 * Every error of an app in its API's style, whoever raises it: its controllers and Nest
 * (`catch`, an ExceptionFilter), Fastify's router before any route (`frameworkError`: a
 * path that is not valid %-encoding, a path segment past maxParamLength) and Node's HTTP
 * parser before Fastify (`clientError`: headers too large, a request that is not HTTP).
 * Never crashes, never leaks a stack trace. Context libs map their own errors (ingest,
 * projection lag...) with `register`. startHttpApp wires all three.
 */
@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  private readonly logger: Logger;
  private readonly translate: Translate[] = [];

  constructor(name: string, private readonly render: RenderError) {
    this.logger = new Logger(name);
  }

  register(translate: Translate): this {
    this.translate.push(translate);
    return this;
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const error = this.errorOf(exception);
    if (reply.sent) {
      reply.raw.destroy();
      return;
    }
    this.send(reply, error);
  }

  /** Fastify's `frameworkErrors`: what its router refuses before a route is found. */
  frameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
    const known = FRAMEWORK_ERRORS[error.code];
    this.send(reply, known ? new ApiError(known[0], known[1]) : this.errorOf(error));
  }

  /**
   * Fastify's `clientErrorHandler` (the server's 'clientError'): a request Node's parser
   * refuses. Answered on the socket itself (there is no request), then the connection is
   * closed; nothing is written to a connection the client reset.
   */
  clientError(error: NodeJS.ErrnoException, socket: Duplex): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (!socket.writable) return void socket.destroy();
    const [status, message] = clientErrorOf(error);
    const answer = this.answerOf(new ApiError(status, message), '');
    const body = answer.body ?? '';
    const head = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`, ...Object.entries(answer.headers).map(([n, v]) => `${n}: ${v}`), `content-length: ${Buffer.byteLength(body)}`, 'connection: close'];
    // Closed once the answer is written out (destroyed at once, a TLS socket would drop it).
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  }

  private errorOf(exception: unknown): ApiError {
    let error: ApiError | null = exception instanceof ApiError ? exception : null;
    for (const t of this.translate) error ??= t(exception);
    if (!error && exception instanceof HttpException) {
      const status = exception.getStatus();
      error = new ApiError(status, status === 404 ? 'Not Found' : exception.message);
    }
    if (!error) {
      this.logger.error(exception instanceof Error ? exception.stack ?? exception.message : String(exception));
      error = new ApiError(500, 'Internal Server Error');
    }
    return error;
  }

  private answerOf(error: ApiError, url: string): ErrorAnswer {
    const answer = this.render(error, url);
    const retryAfter: Record<string, string> = error.retryAfterSeconds === null ? {} : { 'retry-after': String(error.retryAfterSeconds) };
    return { ...answer, headers: { ...answer.headers, ...retryAfter, 'access-control-allow-origin': '*' } };
  }

  private send(reply: FastifyReply, error: ApiError): void {
    const answer = this.answerOf(error, reply.request.url);
    // A Buffer: Fastify leaves its content type as the render wrote it (it appends a charset to a string's).
    void reply.status(answer.status).headers(answer.headers).send(answer.body === null ? undefined : Buffer.from(answer.body));
  }
}

/** The longest path segment a route takes (Fastify's maxParamLength): a collection key travels as one. */
export const MAX_PATH_SEGMENT_CHARS = 1000;

/** Fastify's router errors, worded as ours. */
const FRAMEWORK_ERRORS: Record<string, [number, string]> = {
  FST_ERR_BAD_URL: [400, 'Bad Request: the path is not valid percent-encoding'],
  FST_ERR_MAX_PARAM_LENGTH: [414, `URI Too Long: a path segment is longer than ${MAX_PATH_SEGMENT_CHARS} characters`],
};

/** Status and message of a request Node's HTTP parser refused (the statuses of Fastify's default handler, in our words). */
function clientErrorOf(error: NodeJS.ErrnoException & { reason?: unknown }): [number, string] {
  if (error.code === 'HPE_HEADER_OVERFLOW') return [431, `Request Header Fields Too Large: the request line and headers are limited to ${maxHeaderSize} bytes`];
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request Timeout'];
  // llhttp's reason is a fixed phrase ("Invalid char in url path"): a request target must be ASCII, percent-encoded.
  return [400, `Bad Request: not a valid HTTP/1.1 request (${typeof error.reason === 'string' ? error.reason : error.code ?? 'unparsable'})`];
}

/** Storage style: plain text, one line. A refused JSON-lines body (IngestError) answers with its status and message. */
export function storageErrorFilter(): ApiErrorFilter {
  return new ApiErrorFilter('storage', (e) => ({ status: e.status, headers: { 'content-type': 'text/plain; charset=UTF-8' }, body: `${e.message}\n` })).register((e) =>
    e instanceof IngestError ? new ApiError(e.status, e.message) : null,
  );
}

/** Dash (job control, comments) style: `{"status": "error", "message": ...}`. */
export function dashErrorFilter(): ApiErrorFilter {
  return new ApiErrorFilter('dash', (e) => ({ status: e.status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ status: 'error', message: e.message }) }));
}
