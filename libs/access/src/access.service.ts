import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { digestOf, keyIdOf, Principal } from './domain/access-key';
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
    const key = await this.keys.findByDigest(digest);
    const principal = key ? { id: key.keyId, admin: key.admin, projects: key.projects, capabilities: key.capabilities } : null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(digest, { principal, until: Date.now() + CACHE_MS });
    return principal;
  }
}
