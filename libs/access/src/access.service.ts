import { Inject, Injectable, Optional } from '@nestjs/common';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { Clock, CLOCK } from '@crawlhub/contracts';
import { AccessKey, digestOf, keyIdOf, Principal } from './domain/access-key';
import { keyIdOfProxyToken } from './domain/proxy-token';
import { ConsoleSession, mintSessionToken, sessionOfToken } from './domain/session-token';
import { ACCESS_KEYS_VIEW, AccessKeysView } from './ports/access-keys.view';

/**
 * The platform secret (JOB_TOKEN_SECRET: signs job, proxy and console session tokens).
 * Provided by CoreModule (libs/platform), resolved once per process.
 */
export const JOB_TOKEN_SECRET = Symbol('JOB_TOKEN_SECRET');

const CACHE_MS = 2_000;
const CACHE_ENTRIES = 10_000;

type Cache = Map<string, { principal: Principal | null; until: number }>;

/** Resolves API keys (and proxy tokens) to principals. Lookups are cached for CACHE_MS (a revoked key stops within it): every request needs one. */
@Injectable()
export class AccessService {
  /** Keyed by the secret itself: a hit costs no hash (the proxy asks once per request). */
  private readonly bySecret: Cache = new Map();
  /** Keyed by key id, for proxy tokens; apart from `bySecret`, so that a key id sent as a secret never matches. */
  private readonly byKeyId: Cache = new Map();

  constructor(
    @Inject(ACCESS_KEYS_VIEW) private readonly keys: AccessKeysView,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(JOB_TOKEN_SECRET) private readonly platformSecret: string | null = null,
  ) {}

  async authenticate(secret: string | undefined): Promise<Principal | null> {
    if (!secret) return null;
    const hit = cached(this.bySecret, secret);
    if (hit !== undefined) return hit;
    const principal = this.config.adminKey !== null && secret === this.config.adminKey ? { id: keyIdOf(secret), admin: true, projects: [] } : principalOf(await this.keys.findByDigest(digestOf(secret)));
    return remember(this.bySecret, secret, principal);
  }

  /**
   * The principal of a proxy token (see proxy-token.ts): the key it names, while that key
   * lives (a revoked key's tokens stop working within the cache time) and the token has
   * not expired.
   */
  async authenticateProxyToken(token: string, secret: string): Promise<Principal | null> {
    const keyId = await keyIdOfProxyToken(token, secret, this.clock.now());
    return keyId === null ? null : this.principalOfKeyId(keyId);
  }

  /**
   * A console session for an API key (libs/console): the token for its cookie and the
   * session it names (its CSRF proof), or null when the key is unknown.
   */
  async startSession(secret: string): Promise<{ token: string; session: ConsoleSession; principal: Principal } | null> {
    const principal = await this.authenticate(secret);
    if (principal === null) return null;
    const { token, session } = await mintSessionToken(principal.id, this.clock.now() + this.config.console.sessionHours * 3_600_000, this.requireSecret());
    return { token, session, principal };
  }

  /** The principal of a console session's token, exactly as its key's (same projects, same capabilities), while the key lives and the session has not expired. */
  async authenticateSession(token: string): Promise<{ principal: Principal; session: ConsoleSession } | null> {
    const session = await sessionOfToken(token, this.requireSecret(), this.clock.now());
    if (session === null) return null;
    const principal = await this.principalOfKeyId(session.keyId);
    return principal === null ? null : { principal, session };
  }

  private async principalOfKeyId(keyId: string): Promise<Principal | null> {
    if (this.config.adminKey !== null && keyId === keyIdOf(this.config.adminKey)) return { id: keyId, admin: true, projects: [] };
    const hit = cached(this.byKeyId, keyId);
    if (hit !== undefined) return hit;
    return remember(this.byKeyId, keyId, principalOf(await this.keys.findById(keyId)));
  }

  private requireSecret(): string {
    if (this.platformSecret === null) throw new Error('console sessions need the platform secret (JOB_TOKEN_SECRET, provided by CoreModule)');
    return this.platformSecret;
  }
}

function principalOf(key: AccessKey | null): Principal | null {
  return key ? { id: key.keyId, admin: key.admin, projects: key.projects, capabilities: key.capabilities } : null;
}

function cached(cache: Cache, lookup: string): Principal | null | undefined {
  const hit = cache.get(lookup);
  return hit && hit.until > performance.now() ? hit.principal : undefined;
}

function remember(cache: Cache, lookup: string, principal: Principal | null): Principal | null {
  if (cache.size > CACHE_ENTRIES) cache.clear();
  cache.set(lookup, { principal, until: performance.now() + CACHE_MS });
  return principal;
}
