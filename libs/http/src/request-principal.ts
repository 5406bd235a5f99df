import { Inject, Injectable, Optional } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AccessService, canAccessJob, canAccessProject, Principal } from '@crawlhub/access';
import { Actor } from '@crawlhub/contracts';
import { credentialsOf } from './credentials';
import { queryOf } from './query-params';
import { ApiError } from './storage-http-error';

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

/**
 * Resolves the principal of a request: an API key (Basic user name or `?apikey=`), or a
 * job token (Basic `<job key>:<token>`, compat-notes §1.4). Each API renders failures in
 * its own style.
 */
@Injectable()
export class RequestPrincipal {
  constructor(
    private readonly access: AccessService,
    @Optional() @Inject(JOB_TOKEN_VERIFIER) private readonly jobTokens: JobTokenVerifier | null,
  ) {}

  async of(req: FastifyRequest): Promise<Principal | null> {
    const c = credentialsOf(req.headers, queryOf(req));
    if (!c) return null;
    if (JOB_KEY.test(c.user) && c.password !== '') return this.jobTokens ? this.jobTokens.verify(c.user, c.password) : null;
    return this.access.authenticate(c.user);
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
