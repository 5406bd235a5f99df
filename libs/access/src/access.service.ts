import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { digestOf, keyIdOf, Principal } from './domain/access-key';
import { ACCESS_KEYS_VIEW, AccessKeysView } from './ports/access-keys.view';

const CACHE_MS = 2_000;

/** Resolves API keys to principals. Lookups are cached for CACHE_MS (a revoked key stops within it): every request needs one. */
@Injectable()
export class AccessService {
  private readonly cache = new Map<string, { principal: Principal | null; until: number }>();

  constructor(
    @Inject(ACCESS_KEYS_VIEW) private readonly keys: AccessKeysView,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
  ) {}

  async authenticate(secret: string | undefined): Promise<Principal | null> {
    if (!secret) return null;
    // Keyed by the secret itself: a hit costs no hash (the proxy asks once per request).
    const hit = this.cache.get(secret);
    if (hit && hit.until > Date.now()) return hit.principal;
    let principal: Principal | null;
    if (this.config.adminKey !== null && secret === this.config.adminKey) principal = { id: keyIdOf(secret), admin: true, projects: [] };
    else {
      const key = await this.keys.findByDigest(digestOf(secret));
      principal = key ? { id: key.keyId, admin: key.admin, projects: key.projects, capabilities: key.capabilities } : null;
    }
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(secret, { principal, until: Date.now() + CACHE_MS });
    return principal;
  }
}
