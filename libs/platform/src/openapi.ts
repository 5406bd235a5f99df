import { INestApplication, RequestMethod } from '@nestjs/common';
import type { RouteInfo } from '@nestjs/common/interfaces';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService } from '@nestjs/core';

/** The HTTP APIs, as /openapi.json names them. */
export const API_DESCRIPTIONS = {
  storage: { title: 'crawlhub storage API', doc: 'docs/storage-api.md', errors: 'text/plain' },
  dash: { title: 'crawlhub dash API (job control, comments, spiders, deploys)', doc: 'docs/dash-api.md', errors: 'application/json' },
  fetch: { title: 'crawlhub fetch API', doc: 'docs/fetch-api.md', errors: 'application/json' },
  extract: { title: 'crawlhub extraction API', doc: 'docs/extraction-api.md', errors: 'application/problem+json' },
  stats: { title: 'crawlhub proxy usage statistics API', doc: 'docs/proxy-stats.md', errors: 'application/json' },
} as const;
export type ApiName = keyof typeof API_DESCRIPTIONS;

/** The routes every API port serves beside its own (OPS paths and this description). */
const PLATFORM_ROUTES: { path: string; summary: string; open: boolean; type: string }[] = [
  { path: '/healthz', summary: 'Alive: answers `ok` while the process serves', open: true, type: 'text/plain' },
  { path: '/readyz', summary: 'Ready: the event log and view store answer and the views are within READY_MAX_LAG events of the log; 503 otherwise', open: true, type: 'text/plain' },
  { path: '/metrics', summary: 'Prometheus metrics of the process (the admin key, unless METRICS_PUBLIC)', open: false, type: 'text/plain' },
  { path: '/openapi.json', summary: 'This description', open: true, type: 'application/json' },
  { path: '/openapi', summary: 'This description, rendered as a page', open: true, type: 'text/html' },
];

/** The tail of a declared pattern that matches everything under it: `/*`, or Nest 11's `/{*name}`. */
const WILDCARD_TAIL = /\/(\*|\{\*[A-Za-z0-9_]+\})$/;

/**
 * Whether a route (a path as its controller declares it, e.g. `p/*` or `/console/session`; a declared
 * pattern may end in `/*` or Nest 11's `/{*name}`)
 * is one of `unprefixed`: served outside the API's prefix, beside the API but not part of
 * it (the dash port's web console: its pages, assets, session and forwarders; docs/console.md).
 */
export function isUnprefixedRoute(path: string, unprefixed: RouteInfo[]): boolean {
  const bare = path.replace(/^\/+|\/+$/g, '');
  return unprefixed.some(({ path: declared }) => {
    const pattern = declared.replace(/^\/+|\/+$/g, '');
    // `p/*` or Nest 11's named form `p/{*path}`: everything under `p/`.
    const under = WILDCARD_TAIL.exec(pattern);
    return under ? bare.startsWith(pattern.slice(0, under.index + 1)) : bare === pattern;
  });
}

/**
 * An OpenAPI 3 description of one API, made from its Nest controllers' route metadata
 * (@Controller, @Get, @Post...), so it cannot drift from the routes: every route with its
 * method, path parameters and the controller that serves it. The contracts of bodies and
 * answers are the API's reference page (`doc`), linked from the description.
 */
export function openApiDocument(app: INestApplication, api: ApiName, prefix = '', unprefixed: RouteInfo[] = []): Record<string, unknown> {
  const { title, doc, errors } = API_DESCRIPTIONS[api];
  const paths: Record<string, Record<string, unknown>> = {};
  const discovery = app.get(DiscoveryService);
  for (const wrapper of discovery.getControllers()) {
    const type = wrapper.metatype as (new () => unknown) | undefined;
    if (!type) continue;
    const bases = asList(Reflect.getMetadata(PATH_METADATA, type));
    const proto = type.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const handler = proto[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) continue;
      for (const base of bases) {
        for (const sub of asList(Reflect.getMetadata(PATH_METADATA, handler))) {
          if (isUnprefixedRoute(joinPath('', base, sub), unprefixed)) continue;
          const route = joinPath(prefix, base, sub);
          const openApiPath = route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
          const params = [...route.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
          (paths[openApiPath] ??= {})[RequestMethod[method].toLowerCase()] = {
            operationId: `${type.name}.${name}`,
            tags: [type.name.replace(/Controller$/, '')],
            ...(params.length ? { parameters: params } : {}),
            responses: {
              '200': { description: `success (${doc})` },
              default: { description: `an error, answered as ${errors}`, content: { [errors]: {} } },
            },
          };
        }
      }
    }
  }
  for (const r of PLATFORM_ROUTES) {
    paths[r.path] = {
      get: { operationId: `platform${r.path.replace(/[^a-z]/g, '_')}`, tags: ['platform'], summary: r.summary, ...(r.open ? { security: [] } : {}), responses: { '200': { description: r.summary, content: { [r.type]: {} } } } },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title, version: '1', description: `Reference: ${doc} in the crawlhub repository. Every route but the platform's open ones needs an API key.` },
    components: {
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic', description: 'the API key as the user name, an empty password' },
        apikey: { type: 'apiKey', in: 'query', name: 'apikey' },
      },
    },
    security: [{ basic: [] }, { apikey: [] }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
  };
}

function asList(path: unknown): string[] {
  if (path === undefined) return [''];
  return Array.isArray(path) ? path.map(String) : [String(path)];
}

function joinPath(...parts: string[]): string {
  const joined = parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/');
  return `/${joined}`;
}

/** A page that renders /openapi.json with nothing from other hosts: one table of operations. */
export const OPENAPI_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>crawlhub API</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}code{font-size:13px}</style>
</head><body><h1 id="title">crawlhub API</h1><p id="description"></p><p><a href="openapi.json">openapi.json</a></p>
<table><thead><tr><th>method</th><th>path</th><th>operation</th><th>summary</th></tr></thead><tbody id="operations"></tbody></table>
<script>
fetch('openapi.json').then((r) => r.json()).then((doc) => {
  document.getElementById('title').textContent = doc.info.title;
  document.getElementById('description').textContent = doc.info.description;
  const body = document.getElementById('operations');
  for (const [path, ops] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(ops)) {
    const row = body.insertRow();
    for (const text of [method.toUpperCase(), path, op.operationId, op.summary || '']) {
      const cell = row.insertCell();
      const code = document.createElement('code');
      code.textContent = text;
      cell.appendChild(code);
    }
  }
});
</script></body></html>
`;
