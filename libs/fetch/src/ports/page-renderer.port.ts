import { Injectable } from '@nestjs/common';

/**
 * How a renderer worker renders a page: the browser render pool (libs/render) binds this
 * port; until it does, `RenderingUnavailable` answers every render with a clear failure.
 */
export const PAGE_RENDERER = Symbol('PAGE_RENDERER');

export interface RenderRequest {
  url: string;
  screenshot: boolean;
  headers?: Record<string, string>;
  /** Counted from when the page starts rendering, not from when it was queued. */
  timeoutMs?: number;
  /** Where the browser's traffic goes, with the proxy token of the user it is accounted to. */
  proxy?: { url: string; token: string };
}

export type RenderFailure = 'timeout' | 'queue_full' | 'blocked' | 'net_error' | 'unavailable';

export type RenderOutcome =
  | { ok: true; status: number; headers: Record<string, string>; html: string; screenshot?: Buffer; finalUrl: string }
  | { ok: false; failure: RenderFailure; message: string; /** The proxy error code of a net error, when known. */ code?: string };

export interface PageRenderer {
  render(request: RenderRequest): Promise<RenderOutcome>;
}

@Injectable()
export class RenderingUnavailable implements PageRenderer {
  async render(): Promise<RenderOutcome> {
    return { ok: false, failure: 'unavailable', message: 'rendering is not available in this build' };
  }
}

/** The proxy error code a render failure is reported with (fetch response `crawlera_error`). */
export function renderFailureCode(o: Extract<RenderOutcome, { ok: false }>): string {
  switch (o.failure) {
    case 'timeout':
      return 'timeout';
    case 'queue_full':
      return 'serverbusy';
    case 'blocked':
      return 'domain_forbidden';
    case 'net_error':
      return o.code ?? 'econnrefused';
    case 'unavailable':
      return 'render_unavailable';
  }
}
