import { INestApplication, LoggerService, LogLevel, Type } from '@nestjs/common';
import type { RouteInfo } from '@nestjs/common/interfaces';
import { NestFactory } from '@nestjs/core';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiErrorFilter, MAX_PATH_SEGMENT_CHARS, parseQuery } from '@crawlhub/http';
import { ApiName } from './openapi';
import { instrumentHttpApp } from './http-ops';

/**
 * Starts one HTTP API on Fastify. Bodies are not parsed by the framework: every
 * controller reads `req.raw` as a stream, so bodies of any size are handled as they
 * arrive (JSON lines, gzip, forms); query strings are read by the strict form decoder of
 * every API (parseQuery). Every error answer, whoever raises it (a controller,
 * Nest, Fastify's router, Node's HTTP parser), goes through the app's `errors` filter, so
 * each API answers in its own style and never in Fastify's JSON. Every API also serves the
 * platform's routes (instrumentHttpApp: health, metrics, its OpenAPI description). Signals
 * are the caller's (apps/all/main.ts drains, then closes every app in order): an app that
 * closed itself on SIGTERM would stop accepting before the drain.
 */
export async function startHttpApp(
  module: Type<unknown> | ReturnType<typeof Object>,
  options: {
    api: ApiName;
    host: string;
    port: number;
    errors: ApiErrorFilter;
    logger: LoggerService | LogLevel[] | false;
    prefix?: string;
    /** Routes served outside `prefix` (the dash role's console pages beside its /api). */
    unprefixed?: RouteInfo[];
  },
): Promise<INestApplication> {
  const { errors } = options;
  const adapter = new FastifyAdapter({
    bodyLimit: Number.MAX_SAFE_INTEGER,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT_CHARS, ignoreTrailingSlash: true, querystringParser: parseQuery },
    keepAliveTimeout: 65_000,
    // While the app closes (after SIGTERM's drain), a request on a connection it had already
    // accepted is answered as usual: Fastify's default is a 503 in its own JSON without
    // Retry-After, which no client of ours is told to retry.
    return503OnClosing: false,
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => errors.frameworkError(error, request, reply),
    clientErrorHandler: (error, socket) => errors.clientError(error, socket),
  });
  const app = await NestFactory.create<NestFastifyApplication>(module as Type<unknown>, adapter, { logger: options.logger, bodyParser: false });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  if (options.prefix) app.setGlobalPrefix(options.prefix, { exclude: options.unprefixed ?? [] });
  app.useGlobalFilters(errors);
  instrumentHttpApp(app, options.api, options.prefix, options.unprefixed);
  await app.listen(options.port, options.host);
  return app;
}
