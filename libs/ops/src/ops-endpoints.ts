import type { IncomingMessage, ServerResponse } from 'node:http';
import { RETRY_AFTER_SECONDS } from '@crawlhub/http';
import { metricsRegistry } from './metrics';

export const OPS_ENDPOINTS = Symbol('OPS_ENDPOINTS');

/** What GET /readyz says: ready, or why not (never more: the answer needs no key). */
export interface Readiness {
  ready: boolean;
  /** Why not ready, for the operator: which store is unreachable, or how far behind the views are. */
  reason?: string;
}

export interface OpsEndpointsOptions {
  readiness(): Promise<Readiness>;
  /** Whether a request may read /metrics (METRICS_PUBLIC, or the admin key). */
  mayReadMetrics(req: IncomingMessage): Promise<boolean>;
}

/** The paths every port of every role answers, whatever its API. */
export const OPS_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

/**
 * GET /healthz (the process is alive and serves), GET /readyz (it reaches its event log and
 * view store and the views are caught up within READY_MAX_LAG), GET /metrics (Prometheus
 * text). Plain Node request handling, so the same endpoints serve on the Fastify APIs, on
 * the proxy port (not a Fastify app) and on the optional OPS_PORT of roles without a port.
 * The health answers carry only a status word: they need no key.
 */
export class OpsEndpoints {
  constructor(private readonly options: OpsEndpointsOptions) {}

  /** Whether `path` is one of the ops paths (the caller then lets `answer` reply). */
  static handles(path: string): boolean {
    return (OPS_PATHS as readonly string[]).includes(path);
  }

  /** Answers one of OPS_PATHS; `metricsNeedKey: false` on a port of its own (OPS_PORT). */
  async answer(req: IncomingMessage, res: ServerResponse, path: string, { metricsNeedKey = true } = {}): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, req, 405, 'method not allowed\n', { Allow: 'GET, HEAD' });
    if (path === '/healthz') return send(res, req, 200, 'ok\n');
    if (path === '/readyz') {
      const { ready, reason } = await this.options.readiness();
      return send(res, req, ready ? 200 : 503, ready ? 'ready\n' : `not ready: ${reason ?? 'unknown'}\n`, ready ? {} : { 'Retry-After': String(RETRY_AFTER_SECONDS) });
    }
    if (metricsNeedKey && !(await this.options.mayReadMetrics(req))) {
      return send(res, req, 401, 'the metrics need the admin key (HTTP Basic), or METRICS_PUBLIC=true, or OPS_PORT\n', { 'WWW-Authenticate': 'Basic realm="crawlhub metrics"' });
    }
    send(res, req, 200, await metricsRegistry.metrics(), { 'Content-Type': metricsRegistry.contentType });
  }
}

function send(res: ServerResponse, req: IncomingMessage, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers, 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
