import { INestApplication } from '@nestjs/common';
import type { RouteInfo } from '@nestjs/common/interfaces';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { AccessService } from '@crawlhub/access';
import { withCorrelationId } from '@crawlhub/contracts';
import { CLIENT_CHOSEN_ID } from '@crawlhub/http';
import { httpRequestDuration, httpRequests, OPS_PATHS } from '@crawlhub/ops';
import { CORE } from './core';
import type { Core } from './core';
import { accessLogLine } from './nest-logger';
import { ApiName, isUnprefixedRoute, OPENAPI_PAGE, openApiDocument } from './openapi';
import { opsEndpointsOf } from './ops';

/** The route template a request matched (Fastify's, e.g. `/items/:project`), noted for the metrics and the access log. */
const ROUTE = Symbol('route');
type NotedRequest = IncomingMessage & { [ROUTE]?: string };

/** The routes Fastify registered on each app (method and URL template), as its router has them. */
const routesOf = new WeakMap<INestApplication, { routes: { method: string; url: string }[]; unprefixed: RouteInfo[] }>();

/**
 * Every route of the app's API its router has (what its port answers, less the routes served
 * beside the API outside its prefix), for the check against its OpenAPI description.
 */
export function registeredRoutes(app: INestApplication): { method: string; url: string }[] {
  const { routes, unprefixed } = routesOf.get(app) ?? { routes: [], unprefixed: [] };
  return routes.filter((r) => !isUnprefixedRoute(r.url, unprefixed));
}


/**
 * What every HTTP API of the platform serves and records beside its own routes:
 * GET /healthz, /readyz, /metrics (libs/ops), /openapi.json and the page /openapi that
 * renders it; per request a correlation id (X-Request-Id, echoed; the events the request
 * makes carry it), the request metrics per route and status, and with LOG_FORMAT=json one
 * access line. Called by startHttpApp before the app listens.
 */
export function instrumentHttpApp(app: INestApplication, api: ApiName, prefix?: string, unprefixed: RouteInfo[] = []): void {
  const core = app.get<Core>(CORE);
  const ops = opsEndpointsOf(core, accessServiceOf(app));
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const routes: { method: string; url: string }[] = [];
  routesOf.set(app, { routes, unprefixed });
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  fastify.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    (request.raw as NotedRequest)[ROUTE] = request.routeOptions.url;
    done();
  });
  for (const path of OPS_PATHS) {
    fastify.get(path, (request, reply) => {
      reply.hijack();
      return ops.answer(request.raw, reply.raw, path);
    });
  }
  let document: string | null = null;
  fastify.get('/openapi.json', (_request, reply) => {
    document ??= JSON.stringify(openApiDocument(app, api, prefix, unprefixed));
    return reply.header('Content-Type', 'application/json; charset=utf-8').send(document);
  });
  fastify.get('/openapi', (_request, reply) => reply.header('Content-Type', 'text/html; charset=utf-8').send(OPENAPI_PAGE));

  const log = core.config.logFormat === 'json' && (core.config.logLevel === 'info' || core.config.logLevel === 'debug');
  const server = app.getHttpServer() as Server;
  const handlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: NotedRequest, res: ServerResponse) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && CLIENT_CHOSEN_ID.test(given) ? given : core.ids.uuid();
    res.setHeader('X-Request-Id', id);
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const labels = { api, method: req.method ?? '', route: req[ROUTE] ?? 'unmatched', status: String(res.statusCode) };
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, seconds);
      if (log) process.stdout.write(accessLogLine({ ...labels, path: (req.url ?? '').split('?')[0], completed: res.writableFinished, durationMs: Math.round(seconds * 1e6) / 1e3, correlationId: id }));
    });
    withCorrelationId(id, () => {
      for (const handle of handlers) handle.call(server, req, res);
    });
  });
}

function accessServiceOf(app: INestApplication): AccessService | null {
  try {
    return app.get(AccessService, { strict: false });
  } catch {
    return null;
  }
}
