import { Inject, Injectable, Optional } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { parse as parseCookies } from 'cookie';
import { AccessService, canAccessJob, canAccessProject, Principal } from '@crawlhub/access';
import { Actor } from '@crawlhub/contracts';
import { credentialsOf } from './credentials';
import { queryOf } from './query-params';
import { ApiError } from './api-error';

/** Who an event is attributed to: the key, or the job whose token was used. */
export function actorOf(p: Principal): Actor {
  return p.job === undefined ? { kind: 'key', id: p.id } : { kind: 'job', id: p.job };
}

export const JOB_TOKEN_VERIFIER = Symbol('JOB_TOKEN_VERIFIER');

/** Turns `<job key>:<token>` credentials into a job principal, or null (provided by the jobs context). */
export interface JobTokenVerifier {
  verify(jobKey: string, token: string): Promise<Principal | null>;
}

const JOB_KEY = /^\d{1,15}\/\d{1,15}\/\d{1,15}$/;

/** The web console's session cookie (libs/console): HttpOnly, SameSite=Strict, a token of AccessService.startSession. */
export const SESSION_COOKIE = 'crawlhub_session';
/** The header in which a request made with the session cookie repeats the session's CSRF proof. */
export const CSRF_HEADER = 'x-csrf-token';
/** Methods that change nothing: the only ones a session request may make without the CSRF proof. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Resolves the principal of a request: an API key (Basic user name or `?apikey=`), a
 * job token (Basic `<job key>:<token>`, compat-notes §1.4), or the web console's
 * session cookie, which stands for its key exactly (same projects, same capabilities).
 * A request that changes something with the cookie alone must repeat the session's CSRF
 * proof in X-CSRF-Token (else 403), so no other site can act through a signed-in
 * browser. Each API renders failures in its own style.
 */
@Injectable()
export class RequestPrincipal {
  constructor(
    private readonly access: AccessService,
    @Optional() @Inject(JOB_TOKEN_VERIFIER) private readonly jobTokens: JobTokenVerifier | null,
  ) {}

  async of(req: FastifyRequest): Promise<Principal | null> {
    const c = credentialsOf(req.headers, queryOf(req));
    if (!c) return this.ofSession(req);
    if (JOB_KEY.test(c.user) && c.password !== '') return this.jobTokens ? this.jobTokens.verify(c.user, c.password) : null;
    return this.access.authenticate(c.user);
  }

  /** The principal of the console session cookie, if any; a changing request without the session's CSRF proof is refused. */
  private async ofSession(req: FastifyRequest): Promise<Principal | null> {
    const cookies = req.headers.cookie;
    const token = cookies ? parseCookies(cookies)[SESSION_COOKIE] : undefined;
    if (!token) return null;
    const signedIn = await this.access.authenticateSession(token);
    if (signedIn === null) return null;
    if (!SAFE_METHODS.has(req.method) && req.headers[CSRF_HEADER] !== signedIn.session.csrf) {
      throw new ApiError(403, 'Cross-site request refused: a request made with the console session must carry its X-CSRF-Token');
    }
    return signedIn.principal;
  }

  /** The principal of a request that must carry valid credentials (else 401). */
  async require(req: FastifyRequest): Promise<Principal> {
    const principal = await this.of(req);
    if (!principal) throw new ApiError(401, 'Unauthorized');
    return principal;
  }

  /** The principal, if it may see `project` (and `jobKey`, when the resource is a job's): else 401 / 403. */
  async authorize(req: FastifyRequest, project: number, jobKey?: string): Promise<Principal> {
    const principal = await this.require(req);
    const allowed = jobKey === undefined ? canAccessProject(principal, project) : canAccessJob(principal, jobKey);
    if (!allowed) throw new ApiError(403, 'Forbidden');
    return principal;
  }
}
