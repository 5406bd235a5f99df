import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { IngestError } from './json-lines';

/** An error answer of any API: a status and a one-line message, rendered in the API's style. */
export class StorageHttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
  static notFound() {
    return new StorageHttpError(404, 'Not Found');
  }
  static unauthorized() {
    return new StorageHttpError(401, 'Unauthorized');
  }
  static forbidden() {
    return new StorageHttpError(403, 'Forbidden');
  }
  static badRequest(message: string) {
    return new StorageHttpError(400, message);
  }
}

/** The error type every API throws; each app's filter renders it in that API's style. */
export { StorageHttpError as ApiError };

type Translate = (e: unknown) => StorageHttpError | null;
type Render = (reply: FastifyReply, error: StorageHttpError) => void;

/**
 * Renders every error of an app in its API's style; never crashes, never leaks a stack
 * trace. Context libs map their own errors (ingest, projection lag...) with `register`.
 */
@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  private readonly logger: Logger;
  private readonly translate: Translate[] = [];

  constructor(name: string, private readonly render: Render) {
    this.logger = new Logger(name);
  }

  register(translate: Translate): this {
    this.translate.push(translate);
    return this;
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    let error: StorageHttpError | null = exception instanceof StorageHttpError ? exception : null;
    for (const t of this.translate) error ??= t(exception);
    if (!error && exception instanceof HttpException) {
      const status = exception.getStatus();
      error = new StorageHttpError(status, status === 404 ? 'Not Found' : exception.message);
    }
    if (!error) {
      this.logger.error(exception instanceof Error ? exception.stack ?? exception.message : String(exception));
      error = new StorageHttpError(500, 'Internal Server Error');
    }
    if (reply.sent) {
      reply.raw.destroy();
      return;
    }
    this.render(reply.status(error.status).header('access-control-allow-origin', '*'), error);
  }
}

/** Storage style: plain text, one line. A refused JSON-lines body (IngestError) answers with its status and message. */
export function storageErrorFilter(): ApiErrorFilter {
  return new ApiErrorFilter('storage', (reply, e) => void reply.header('content-type', 'text/plain; charset=UTF-8').send(`${e.message}\n`)).register(
    (e) => (e instanceof IngestError ? new StorageHttpError(e.status, e.message) : null),
  );
}

/** Dash (job control, comments) style: `{"status": "error", "message": ...}`. */
export function dashErrorFilter(): ApiErrorFilter {
  return new ApiErrorFilter('dash', (reply, e) =>
    void reply.header('content-type', 'application/json').send(JSON.stringify({ status: 'error', message: e.message })),
  );
}
