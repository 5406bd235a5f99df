import { Injectable } from '@nestjs/common';
import type { Renderer, RenderResult } from '@crawlhub/render';

/**
 * How a renderer worker renders a page: the browser render pool (libs/render, bound by
 * apps/worker when WORKER_KINDS include `render`); a plain-only worker binds
 * `RenderingUnavailable` and loads no browser code (type-only imports of libs/render).
 */
export const PAGE_RENDERER = Symbol('PAGE_RENDERER');

/** Renders pages: libs/render's `Renderer` (its RenderError's `failure` says why one failed). */
export type PageRenderer = Renderer;

export class RenderUnavailableError extends Error {
  readonly failure = 'unavailable';
}

@Injectable()
export class RenderingUnavailable implements PageRenderer {
  async render(): Promise<RenderResult> {
    throw new RenderUnavailableError('rendering is not available in this build');
  }
}

const NET_ERRORS: [RegExp, string][] = [
  [/ERR_CONNECTION_REFUSED/, 'econnrefused'],
  [/ERR_NAME_NOT_RESOLVED/, 'nxdomain'],
  [/ERR_CONNECTION_RESET/, 'econnreset'],
  [/ERR_(ADDRESS|NETWORK)_UNREACHABLE/, 'ehostunreach'],
  [/ERR_(CONNECTION_)?TIMED_OUT/, 'timeout'],
];

/** The proxy error code a failed render is reported with (the fetch response's `crawlera_error`). */
export function renderFailureCode(e: unknown): string {
  const failure = (e as { failure?: unknown } | null)?.failure;
  const message = e instanceof Error ? e.message : String(e);
  switch (failure) {
    case 'timeout':
      return 'timeout';
    case 'queue_full':
      return 'serverbusy';
    case 'blocked_target':
      return 'domain_forbidden';
    case 'bad_url':
      return 'bad_header';
    case 'net_error':
      return NET_ERRORS.find(([re]) => re.test(message))?.[1] ?? 'econnreset';
    case 'unavailable':
      return 'render_unavailable';
    default:
      return 'render_error';
  }
}
