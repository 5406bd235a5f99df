import { INestApplication, LoggerService, LogLevel, Type } from '@nestjs/common';
import { ExceptionFilter } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * Starts one HTTP API on Fastify. Bodies are not parsed by the framework: every
 * controller reads `req.raw` as a stream, so bodies of any size are handled as they
 * arrive (JSON lines, gzip, forms).
 */
export async function startHttpApp(
  module: Type<unknown> | ReturnType<typeof Object>,
  options: { host: string; port: number; filter: ExceptionFilter; logger: LoggerService | LogLevel[] | false; prefix?: string },
): Promise<INestApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: Number.MAX_SAFE_INTEGER, routerOptions: { maxParamLength: 1000, ignoreTrailingSlash: true }, keepAliveTimeout: 65_000 });
  const app = await NestFactory.create<NestFastifyApplication>(module as Type<unknown>, adapter, { logger: options.logger, bodyParser: false });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  if (options.prefix) app.setGlobalPrefix(options.prefix);
  app.useGlobalFilters(options.filter);
  app.enableShutdownHooks();
  await app.listen(options.port, options.host);
  return app;
}
