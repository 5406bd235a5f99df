import { All, Controller, Delete, Get, Inject, Param, Post, Req, RequestMethod, Res } from '@nestjs/common';
import type { RouteInfo } from '@nestjs/common/interfaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { AccessService, Principal } from '@crawlhub/access';
import { ApiError, credentialsOf, CSRF_HEADER, parseJson, queryOf, readText, SESSION_COOKIE } from '@crawlhub/http';
import { CONSOLE_CSP, contentTypeOf, ConsoleBuild, pageShell } from './console-assets';
import { forwardToPublicApi } from './public-api-forwarder';
import type { ConsoleSession } from '@crawlhub/wire';

export const CONSOLE_BUILD = Symbol('CONSOLE_BUILD');
/** Where the console forwards /storage/ and /stats/ (CONSOLE_STORAGE_URL, CONSOLE_STATS_URL, resolved by the dash app). */
export const CONSOLE_UPSTREAMS = Symbol('CONSOLE_UPSTREAMS');
export interface ConsoleUpstreams {
  storage: string;
  stats: string;
}

const MAX_SIGN_IN_BYTES = 4096;

/** The console's routes, served beside the dash API rather than under its /api prefix (excluded from it; Nest 11's named wildcards, which it would otherwise convert with a warning at every start). */
export const CONSOLE_ROUTES: RouteInfo[] = [
  { path: '/', method: RequestMethod.GET },
  { path: 'p', method: RequestMethod.GET },
  { path: 'p/{*path}', method: RequestMethod.GET },
  { path: 'usage', method: RequestMethod.GET },
  { path: 'keys', method: RequestMethod.GET },
  { path: 'console/{*path}', method: RequestMethod.ALL },
  { path: 'storage', method: RequestMethod.ALL },
  { path: 'storage/{*path}', method: RequestMethod.ALL },
  { path: 'stats', method: RequestMethod.ALL },
  { path: 'stats/{*path}', method: RequestMethod.ALL },
];

function sendJson(reply: FastifyReply, status: number, value: unknown): FastifyReply {
  return reply.status(status).header('content-type', 'application/json').header('cache-control', 'no-store').send(JSON.stringify(value));
}

function whoAmI(principal: Principal, csrf: string | null): ConsoleSession {
  return { status: 'ok', key_id: principal.id, admin: principal.admin, projects: principal.projects, capabilities: principal.admin ? 'all' : principal.capabilities ?? [], csrf };
}

/**
 * The web console (docs/console.md), served by the dash role beside its API: the pages
 * (one shell; the app in the browser takes the route from the URL, so `/p/<p>/<s>/<j>`,
 * the link `shub schedule` prints, opens the job), their built assets, the session
 * (sign-in with an API key: an HttpOnly, SameSite=Strict cookie), and the public storage
 * and stats APIs forwarded under /storage/ and /stats/ so the browser talks to one origin.
 */
@Controller()
export class ConsoleController {
  constructor(
    private readonly access: AccessService,
    @Inject(CONSOLE_BUILD) private readonly build: ConsoleBuild | null,
    @Inject(CONSOLE_UPSTREAMS) private readonly upstreams: ConsoleUpstreams,
  ) {}

  @Get()
  home(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(req, reply);
  }

  @Get(['p', 'p/*', 'usage', 'keys'])
  projectPages(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(req, reply);
  }

  @Get('console/assets/:name')
  asset(@Param('name') name: string, @Res() reply: FastifyReply) {
    const body = this.build?.files.get(name);
    if (!body) throw new ApiError(404, 'Not Found');
    // Names carry their content hash: a new build gets new names.
    return reply.status(200).header('content-type', contentTypeOf(name)).header('cache-control', 'public, max-age=31536000, immutable').header('x-content-type-options', 'nosniff').send(body);
  }

  /** Who the browser is signed in as, with the session's CSRF proof for its changing requests. */
  @Get('console/session')
  async session(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const signedIn = await this.sessionOf(req);
    if (!signedIn) throw new ApiError(401, 'Not signed in');
    return sendJson(reply, 200, whoAmI(signedIn.principal, signedIn.session.csrf));
  }

  /**
   * Sign-in: `{"apikey": "..."}` as JSON. Only JSON is taken, which a page of another
   * site can send only after a CORS preflight this origin never grants, so no site can
   * sign a browser in under a key of its choosing.
   */
  @Post('console/session')
  async signIn(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) throw new ApiError(415, 'Sign in with a JSON body: {"apikey": "<your API key>"}');
    let apikey: unknown;
    try {
      apikey = (parseJson(await readText(req, MAX_SIGN_IN_BYTES)) as { apikey?: unknown } | null)?.apikey;
    } catch {
      throw new ApiError(400, 'Sign in with a JSON body: {"apikey": "<your API key>"}');
    }
    if (typeof apikey !== 'string' || apikey.trim() === '') throw new ApiError(400, 'apikey is required');
    const started = await this.access.startSession(apikey.trim());
    if (!started) throw new ApiError(401, 'Unknown API key');
    this.setSessionCookie(req, reply, started.token, started.session.expiresAtMs);
    return sendJson(reply, 200, whoAmI(started.principal, started.session.csrf));
  }

  /** Sign-out: the cookie is cleared (a copy kept elsewhere still ends at its expiry, or when its key is revoked). */
  @Delete('console/session')
  async signOut(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const signedIn = await this.sessionOf(req);
    if (signedIn && req.headers[CSRF_HEADER] !== signedIn.session.csrf) throw new ApiError(403, 'Cross-site request refused: sign-out must carry the session\'s X-CSRF-Token');
    reply.header('set-cookie', serializeCookie(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/', maxAge: 0, secure: req.protocol === 'https' }));
    return sendJson(reply, 200, { status: 'ok' });
  }

  @All(['storage', 'storage/*'])
  storage(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    forwardToPublicApi(req, reply, '/storage/', this.upstreams.storage, unreachable);
  }

  @All(['stats', 'stats/*'])
  stats(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    forwardToPublicApi(req, reply, '/stats/', this.upstreams.stats, unreachable);
  }

  /**
   * A page: the shell. A key given as `?apikey=` or Basic auth signs the browser in first,
   * so links and scripts open pages directly; `?apikey=` is then taken out of the address
   * (a redirect), so the key stays neither in the history nor in a Referer.
   */
  private async page(req: FastifyRequest, reply: FastifyReply) {
    const credentials = credentialsOf(req.headers, queryOf(req));
    if (credentials) {
      const started = await this.access.startSession(credentials.user);
      if (started) this.setSessionCookie(req, reply, started.token, started.session.expiresAtMs);
      const url = new URL(req.url, 'http://console.invalid');
      if (url.searchParams.has('apikey')) {
        url.searchParams.delete('apikey');
        if (!started) url.searchParams.set('signin', 'unknown-key');
        return reply.status(303).header('location', `${url.pathname}${url.search}`).header('cache-control', 'no-store').send();
      }
    }
    reply.header('content-security-policy', CONSOLE_CSP).header('x-frame-options', 'DENY').header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
    if (!this.build) {
      return reply.status(503).header('content-type', 'text/plain; charset=utf-8').send('The console is not built: run `npm run build` (it bundles the console into dist/console).\n');
    }
    return reply.status(200).header('content-type', 'text/html; charset=utf-8').send(pageShell(this.build));
  }

  private async sessionOf(req: FastifyRequest) {
    const cookies = req.headers.cookie;
    const token = cookies ? parseCookies(cookies)[SESSION_COOKIE] : undefined;
    return token ? this.access.authenticateSession(token) : null;
  }

  private setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string, expiresAtMs: number): void {
    reply.header('set-cookie', serializeCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'strict', path: '/', expires: new Date(expiresAtMs), secure: req.protocol === 'https' }));
  }
}

function unreachable(reply: FastifyReply, message: string): void {
  sendJson(reply, 502, { status: 'error', message });
}
