import { Injectable } from '@nestjs/common';

/**
 * How a renderer worker renders a page. The shape is the browser render pool's
 * (libs/render `Renderer`: bind `{ provide: PAGE_RENDERER, useExisting: RENDERER }`);
 * until it is bound, `RenderingUnavailable` fails every render with a clear message.
 */
export const PAGE_RENDERER = Symbol('PAGE_RENDERER');

export interface RenderRequest {
  url: string;
  screenshot?: boolean;
  headers?: Record<string, string>;
  /** Counted from when the page starts rendering, not from when it was queued. */
  timeoutMs?: number;
  /** The credential the browser gives the proxy: the worker's proxy token for the user. */
  proxyKey?: string;
}

export interface RenderResult {
  status: number;
  headers: Record<string, string>;
  html: string;
  /** PNG of the viewport, when asked. */
  screenshot?: Buffer;
  finalUrl: string;
}

/** Renders pages; rejects with an error whose `failure` says why (libs/render's RenderError). */
export interface PageRenderer {
  render(request: RenderRequest): Promise<RenderResult>;
}

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
