import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

/** An error of the storage API: plain text, one line, the original's wording where known. */
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

/** Renders every error of the storage app as `text/plain` with a trailing newline; never crashes. */
@Catch()
export class StorageErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('storage');
  private readonly translate: ((e: unknown) => StorageHttpError | null)[] = [];

  /** Context libs map their own errors (ingest, projection lag...) to statuses here. */
  register(translate: (e: unknown) => StorageHttpError | null): this {
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
    reply.status(error.status).header('content-type', 'text/plain; charset=UTF-8').header('access-control-allow-origin', '*').send(`${error.message}\n`);
  }
}
