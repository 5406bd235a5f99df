import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AccessService, Principal } from '@crawlhub/access';
import { credentialsOf } from './credentials';

/** Resolves the principal of a request from its key; each API answers failures in its own style. */
@Injectable()
export class RequestPrincipal {
  constructor(private readonly access: AccessService) {}

  async of(req: FastifyRequest): Promise<Principal | null> {
    const c = credentialsOf(req.headers, (req.query ?? {}) as Record<string, unknown>);
    return c ? this.access.authenticate(c.user) : null;
  }
}
