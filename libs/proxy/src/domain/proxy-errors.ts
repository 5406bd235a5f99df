/** The proxy's errors (spec "Errors", compat-notes §3.1): status and message of each code. */
export const PROXY_ERRORS = {
  bad_session_id: [400, 'Bad session ID'],
  user_session_limit: [400, 'Session limit exceeded'],
  /** Our addition: a request to the proxy's own routes that they cannot take (legacy /fetch without an http(s) url), or that is not HTTP. */
  bad_request: [400, 'Bad request'],
  /** Our addition: an origin-form request to a path the proxy port does not serve. */
  not_found: [404, 'Not Found'],
  /** Our addition: a method a route of the proxy port does not take (with `Allow`). */
  method_not_allowed: [405, 'Method Not Allowed'],
  bad_proxy_auth: [407, 'Incorrect authentication data'],
  too_many_conns: [429, 'Parallel connections limit has been reached'],
  /** Our addition: request headers past MAX_HEADER_BYTES (the connection is closed after it). */
  headers_too_large: [431, 'Request Header Fields Too Large'],
  header_auth: [470, 'Unauthorized header'],
  unexpected: [500, 'Unexpected error'],
  nxdomain: [502, 'Error looking up domain'],
  ehostunreach: [502, 'Host is unreachable'],
  econnrefused: [502, 'Connection refused'],
  econnreset: [502, 'Connection reset by peer'],
  socket_closed_remotely: [502, 'The socket has been closed remotely'],
  /** Our addition: the origin's TLS handshake or certificate failed. */
  tls_error: [502, 'TLS handshake with the website failed'],
  client_conn_closed: [503, 'Connection closed by client'],
  noslaves: [503, 'No available proxies'],
  banned: [503, 'Proxy has been banned'],
  serverbusy: [503, 'Server busy: too many outstanding requests'],
  /** The hard delay limit of throttling (spec Limits: 503 with Retry-After); the original's newer path-style code. */
  '/limits/over-domain-limit': [503, 'Request delay limit for this domain reached'],
  timeout: [504, 'Connection timed out'],
  domain_forbidden: [523, 'The domain is forbidden for crawling'],
  bad_header: [540, 'Bad header value'],
  data_error: [541, 'Response size is too big'],
} as const satisfies Record<string, readonly [number, string]>;

export type ProxyErrorCode = keyof typeof PROXY_ERRORS;

/** An answer of the proxy itself: status, `X-Proxy-Error` (none for `unexpected`), text body. */
export class ProxyError extends Error {
  readonly status: number;
  constructor(
    readonly code: ProxyErrorCode,
    /** More detail for the body (e.g. which header was bad). */
    readonly detail?: string,
    /** Extra response headers (Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(PROXY_ERRORS[code][1] + (detail ? `: ${detail}` : ''));
    this.status = PROXY_ERRORS[code][0];
  }
}

/** Maps a socket, DNS or TLS error of the way to a website to our code (from its real cause). */
export function errorCodeOf(e: unknown): ProxyErrorCode {
  const err = e as { code?: string; message?: string } | null;
  const code = err?.code ?? '';
  if (e instanceof ProxyError) return e.code;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EAI_NODATA':
      return 'nxdomain';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return 'ehostunreach';
    case 'ECONNREFUSED':
      return 'econnrefused';
    case 'ECONNRESET':
      return err?.message === 'socket hang up' ? 'socket_closed_remotely' : 'econnreset';
    case 'EPIPE':
      return 'econnreset';
    case 'ETIMEDOUT':
    case 'ESOCKETTIMEDOUT':
      return 'timeout';
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return 'socket_closed_remotely';
    case 'ERR_INVALID_CHAR':
    case 'ERR_INVALID_HTTP_TOKEN':
    case 'ERR_HTTP_INVALID_HEADER_VALUE':
      return 'bad_header';
  }
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/.test(code) || /SSL|TLS|certificate/i.test(err?.message ?? '')) return 'tls_error';
  return 'unexpected';
}
