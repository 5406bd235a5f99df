import { Exit } from './exit';

export type Pick = { exit: Exit } | { none: 'noslaves' } | { none: 'banned'; retryAfterMs: number };

/**
 * The exits: picks the least recently used healthy exit not banned for the domain (a
 * round-robin when all are equal), records bans per domain and failures of exits.
 */
export class ExitPool {
  constructor(
    readonly exits: Exit[],
    private readonly options: { banCooldownMs: number; exitCooldownMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** An exit for `domain`, never one of `tried` (the earlier attempts of this request). */
  pick(domain: string, tried: ReadonlySet<Exit> = new Set()): Pick {
    const now = this.now();
    const healthy = this.exits.filter((e) => e.unhealthyUntil <= now);
    if (healthy.length === 0) return { none: 'noslaves' };
    let best: Exit | null = null;
    let soonest = Infinity;
    for (const e of healthy) {
      if (tried.has(e)) continue;
      const until = e.bannedUntil.get(domain) ?? 0;
      if (until > now) {
        soonest = Math.min(soonest, until - now);
        continue;
      }
      if (until) e.bannedUntil.delete(domain);
      if (best === null || e.lastUsed < best.lastUsed) best = e;
    }
    if (best) {
      best.lastUsed = Math.max(now, this.lastStamp + 1);
      this.lastStamp = best.lastUsed;
      return { exit: best };
    }
    if (soonest === Infinity) {
      // Every healthy exit was tried for this request: the last answer was a ban.
      const bans = healthy.map((e) => (e.bannedUntil.get(domain) ?? 0) - now).filter((d) => d > 0);
      soonest = bans.length ? Math.min(...bans) : this.options.banCooldownMs;
    }
    return { none: 'banned', retryAfterMs: soonest };
  }

  /** A strictly increasing "last used" stamp, so that LRU is a round-robin even within one millisecond. */
  private lastStamp = 0;

  /** The exit with this id (a session's), if it is healthy. */
  byId(id: string): Exit | null {
    const e = this.exits.find((x) => x.id === id);
    return e && e.unhealthyUntil <= this.now() ? e : null;
  }

  banned(exit: Exit, domain: string): void {
    exit.bannedUntil.set(domain, this.now() + this.options.banCooldownMs);
    if (exit.bannedUntil.size > 10_000) exit.bannedUntil.delete(exit.bannedUntil.keys().next().value as string);
  }

  failed(exit: Exit): void {
    exit.unhealthyUntil = this.now() + this.options.exitCooldownMs;
  }

  close(): void {
    for (const e of this.exits) e.close();
  }
}
