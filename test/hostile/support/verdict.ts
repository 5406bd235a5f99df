import type { Ctx, Expectation } from './case';
import type { ApiName } from './hostile-platform';
import type { WireAnswer } from './wire';

/**
 * How an answer is judged: its outcome class (for the counts printed at the end) and the
 * problems found against the case's expectation, each API's error style included.
 */

export type Outcome = '4xx' | 'documented refusal' | 'accepted safely' | '5xx' | 'other';

const text = (a: WireAnswer) => a.body.toString('utf8');
const contentType = (a: WireAnswer) => String(a.headers['content-type'] ?? '');
const short = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

export function describeAnswer(a: WireAnswer): string {
  const headers = Object.entries(a.headers)
    .filter(([k]) => /^(content-type|x-proxy-error|x-crawlera-error|content-disposition|www-authenticate)$/i.test(k))
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ');
  return `${a.status} [${headers}] ${JSON.stringify(short(text(a)))}`;
}

function parseJson(a: WireAnswer): unknown {
  try {
    return JSON.parse(text(a));
  } catch {
    return undefined;
  }
}

/** What is wrong with an error answer's form for this API (null: it is in the API's documented style). */
export function styleProblem(api: ApiName, target: string, a: WireAnswer, proxyRoute: 'proxied' | 'direct'): string | null {
  const ct = contentType(a);
  switch (api) {
    case 'storage': {
      const t = text(a);
      if (!ct.startsWith('text/plain')) return `storage errors are text/plain, got Content-Type ${JSON.stringify(ct)}`;
      if (!/^[^\n]+\n$/.test(t)) return `storage errors are one line ending in \\n, got ${JSON.stringify(short(t))}`;
      return null;
    }
    case 'dash':
    case 'stats': {
      const body = parseJson(a) as { status?: unknown; message?: unknown; non_field_errors?: unknown } | undefined;
      // The v2 endpoints answer as the original's (Django REST framework): {"non_field_errors": [...]} (docs/dash-api.md).
      if (api === 'dash' && target.startsWith('/api/v2/') && ct.startsWith('application/json') && Array.isArray(body?.non_field_errors)) return null;
      if (!ct.startsWith('application/json')) return `${api} errors are application/json, got ${JSON.stringify(ct)}`;
      if (!body || body.status !== 'error' || typeof body.message !== 'string' || !body.message) return `${api} errors are {"status": "error", "message": …}, got ${JSON.stringify(short(text(a)))}`;
      return null;
    }
    case 'fetch': {
      const body = parseJson(a) as { error?: unknown; message?: unknown } | undefined;
      if (!ct.startsWith('application/json')) return `fetch API errors are application/json, got ${JSON.stringify(ct)}`;
      if (!body || typeof body.error !== 'string' || typeof body.message !== 'string') return `fetch API errors are {"error", "message"}, got ${JSON.stringify(short(text(a)))}`;
      return null;
    }
    case 'extraction': {
      const body = parseJson(a) as { type?: unknown; title?: unknown; status?: unknown } | undefined;
      if (!ct.startsWith('application/problem+json')) return `extraction errors are application/problem+json, got ${JSON.stringify(ct)}`;
      if (!body || typeof body.type !== 'string' || typeof body.title !== 'string' || body.status !== a.status) return `extraction problems have type, title and status = ${a.status}, got ${JSON.stringify(short(text(a)))}`;
      return null;
    }
    case 'proxy': {
      // The proxy's own routes (/sessions) answer 401 with WWW-Authenticate, as HTTP wants there.
      if (proxyRoute === 'direct' && a.status === 401 && a.headers['www-authenticate']) return null;
      if (!a.headers['x-proxy-error']) return `proxy errors carry X-Proxy-Error, got none`;
      if (a.headers['x-crawlera-error'] !== a.headers['x-proxy-error']) return `proxy errors carry the same code in X-Crawlera-Error`;
      if (!ct.startsWith('text/plain')) return `proxy errors are text/plain, got ${JSON.stringify(ct)}`;
      // A refused CONNECT may end at its headers: tunnelling clients read only the status line and headers.
      if (!a.toConnect && !/^[^\n]+\n$/.test(text(a))) return `proxy errors carry the message as text ending in \\n, got ${JSON.stringify(short(text(a)))}`;
      return null;
    }
  }
}

export interface Verdict {
  outcome: Outcome;
  problems: string[];
}

export async function judge(api: ApiName, target: string, proxyRoute: 'proxied' | 'direct', expect: Expectation, a: WireAnswer, ctx: Ctx): Promise<Verdict> {
  const problems: string[] = [];
  const got = describeAnswer(a);
  const refusedInStyle = (statuses: number[] | null): Outcome => {
    if (statuses && !statuses.includes(a.status)) problems.push(`expected ${statuses.join(' or ')}, got ${got}`);
    const style = styleProblem(api, target, a, proxyRoute);
    if (style) problems.push(`${style} (the answer: ${got})`);
    return '4xx';
  };
  const unexpected = (what: string): Outcome => {
    problems.push(`expected ${what}, got ${got}`);
    return a.status >= 500 ? '5xx' : a.status >= 400 ? '4xx' : 'other';
  };

  switch (expect.kind) {
    case 'refused':
      if (a.status >= 400 && a.status < 500) return { outcome: refusedInStyle(expect.status), problems };
      return { outcome: unexpected(`a ${expect.status.join(' or ')} in the ${api} error style`), problems };
    case 'proxy-error': {
      const code = a.headers['x-proxy-error'];
      if (expect.accept.some((e) => e.status === a.status && e.code === code)) {
        const style = styleProblem('proxy', target, a, proxyRoute);
        if (style) problems.push(`${style} (the answer: ${got})`);
        return { outcome: a.status < 500 ? '4xx' : 'documented refusal', problems };
      }
      return { outcome: unexpected(expect.accept.map((e) => `${e.status} with X-Proxy-Error: ${e.code}`).join(' or ')), problems };
    }
    case 'fetch-failure': {
      const body = parseJson(a) as { proxy_status?: string; crawlera_status?: string; proxy_error?: string; crawlera_error?: string } | undefined;
      if (a.status === 200 && body?.proxy_status === 'fail' && body.proxy_error === expect.code) {
        if (body.crawlera_status !== 'fail' || body.crawlera_error !== expect.code) problems.push(`crawlera_status/crawlera_error must repeat proxy_status/proxy_error: ${got}`);
        return { outcome: 'documented refusal', problems };
      }
      return { outcome: unexpected(`200 with proxy_status "fail" and proxy_error "${expect.code}"`), problems };
    }
    case 'extraction-error': {
      const body = parseJson(a) as { error?: string }[] | undefined;
      if (a.status === 200 && Array.isArray(body) && body.length > 0 && body.every((r) => typeof r.error === 'string' && expect.error.test(r.error))) {
        return { outcome: 'documented refusal', problems };
      }
      return { outcome: unexpected(`200 with every query's error matching ${expect.error}`), problems };
    }
    case 'refused-or-safe':
      if (a.status >= 400 && a.status < 500) return { outcome: refusedInStyle(null), problems };
      if (a.status >= 200 && a.status < 300) {
        const wrong = await expect.check(a, ctx);
        if (wrong) problems.push(`accepted (${got}), but ${wrong}`);
        return { outcome: wrong ? 'other' : 'accepted safely', problems };
      }
      return { outcome: unexpected(`a 4xx, or a 2xx that ${expect.what}`), problems };
  }
}
