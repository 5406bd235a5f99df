/** Why a render failed; each code comes from its real cause. */
export type RenderFailure =
  /** The render did not finish within its time (counted from when it started on a page). */
  | 'timeout'
  /** RENDER_QUEUE_LIMIT renders were already waiting: refused at once. */
  | 'queue_full'
  /** The URL (or a redirect of the page) targets a private, loopback or link-local address. */
  | 'blocked_target'
  /** Not an http(s) URL. */
  | 'bad_url'
  /** The page could not be loaded: the message is Chromium's error text (net::ERR_…). */
  | 'net_error'
  /** The browser failed or crashed, or the pool is closed. */
  | 'browser_error';

export class RenderError extends Error {
  constructor(readonly failure: RenderFailure, message: string) {
    super(message);
    this.name = 'RenderError';
  }
}
