/** One render: load `url` in a browser, run its scripts, return the DOM (and a screenshot). */
export interface RenderRequest {
  url: string;
  /** A PNG of the viewport. */
  screenshot?: boolean;
  /** Extra request headers sent with every request of the page. */
  headers?: Record<string, string>;
  /** Overrides RENDER_TIMEOUT_MS; counted from when the render starts on a page. */
  timeoutMs?: number;
  /** The API key (or proxy token) the browser gives the proxy (default: the user part of the pool's proxy URL). */
  proxyKey?: string;
}

export interface RenderResult {
  /** Status and headers of the main document's last response. */
  status: number;
  headers: Record<string, string>;
  /** The DOM after the page's scripts ran (at the load event). */
  html: string;
  /** PNG of the viewport, when asked. */
  screenshot?: Buffer;
  /** The URL after redirects. */
  finalUrl: string;
}

/** Renders pages; rejects with a RenderError (its `failure` says why). */
export interface Renderer {
  render(request: RenderRequest): Promise<RenderResult>;
}

export const RENDERER = Symbol('RENDERER');
