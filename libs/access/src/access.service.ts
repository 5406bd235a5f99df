import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { AccessKey, digestOf, keyIdOf, Principal } from './domain/access-key';
import { keyIdOfProxyToken } from './domain/proxy-token';
import { ACCESS_KEYS_VIEW, AccessKeysView } from './ports/access-keys.view';

const CACHE_MS = 2_000;

/** Resolves API keys to principals. Lookups are cached briefly: every request needs one. */
@Injectable()
export class AccessService {
  private readonly cache = new Map<string, { principal: Principal | null; until: number }>();

  constructor(
    @Inject(ACCESS_KEYS_VIEW) private readonly keys: AccessKeysView,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
  ) {}

  async authenticate(secret: string | undefined): Promise<Principal | null> {
    if (!secret) return null;
    if (this.config.adminKey !== null && secret === this.config.adminKey) return { id: keyIdOf(secret), admin: true, projects: [] };
    const digest = digestOf(secret);
    const hit = this.cache.get(digest);
    if (hit && hit.until > Date.now()) return hit.principal;
    return this.remember(digest, await this.keys.findByDigest(digest));
  }

  /**
   * The principal of a proxy token (see proxy-token.ts): the key it names, while that key
   * lives (a revoked key's tokens stop working within the cache time) and the token has
   * not expired.
   */
  async authenticateProxyToken(token: string, secret: string): Promise<Principal | null> {
    const keyId = keyIdOfProxyToken(token, secret, Date.now());
    if (keyId === null) return null;
    if (this.config.adminKey !== null && keyId === keyIdOf(this.config.adminKey)) return { id: keyId, admin: true, projects: [] };
    const hit = this.cache.get(keyId);
    if (hit && hit.until > Date.now()) return hit.principal;
    return this.remember(keyId, await this.keys.findById(keyId));
  }

  /** Digests and key ids never collide (a key id starts with `key-`), so one cache holds both. */
  private remember(lookup: string, key: AccessKey | null): Principal | null {
    const principal = key ? { id: key.keyId, admin: key.admin, projects: key.projects, capabilities: key.capabilities } : null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(lookup, { principal, until: Date.now() + CACHE_MS });
    return principal;
  }
}
