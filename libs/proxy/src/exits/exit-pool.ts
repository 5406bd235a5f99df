import type { ProxyThrottleConfig } from '@crawlhub/config';
import { Exit } from './exit';

/** A slot for a request through `exit`: it may leave at `slotAt`, `waitMs` from now. */
export interface Slot {
  exit: Exit;
  slotAt: number;
  waitMs: number;
}

export type Pick = Slot | { none: 'noslaves' } | { none: 'throttled'; retryAfterMs: number };

export interface ExitPoolOptions {
  banCooldownMs: number;
  exitCooldownMs: number;
  throttle: ProxyThrottleConfig;
}

/** Per exit, how many domains may have a pending slot before the past ones are swept. */
const SLOTS_PER_EXIT = 100_000;

/**
 * The exits: picks, among the healthy exits, the one whose next slot for the domain comes
 * first (the least recently used when several are free: a round-robin), records bans per
 * domain and failures of exits, and spaces the requests to one domain through one exit by
 * `throttle.spacingMs` (each request takes the next slot, so the wait grows while requests
 * come faster than that). A ban puts the exit in a cooldown for the domain: it is then
 * picked only when no other exit is left, never refused (a domain always has an exit).
 */
export class ExitPool {
  /** A strictly increasing "last used" stamp, so that LRU is a round-robin even within one millisecond. */
  private lastStamp = 0;

  constructor(
    readonly exits: Exit[],
    private readonly options: ExitPoolOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Whether some exit carries this region label. */
  hasRegion(region: string): boolean {
    return this.exits.some((e) => e.config.region === region);
  }

  /**
   * A slot for `domain` on the best healthy exit (of `region`, when given): first one that
   * this request has not tried (`tried`) and that is not in a ban cooldown for the domain,
   * whose slot comes first; else an untried one in cooldown, else one already tried (a
   * retry), the one banned the longest ago first. `throttled` when the slot's wait would
   * pass the hard limit or the client's `maxWaitMs`; `noslaves` when no exit is healthy.
   */
  pick(domain: string, tried: ReadonlySet<Exit> = new Set(), region: string | null = null, maxWaitMs: number | null = null): Pick {
    const now = this.now();
    let best: Exit | null = null;
    let bestRank: number[] = [];
    for (const e of this.exits) {
      if (e.unhealthyUntil > now || (region !== null && e.config.region !== region)) continue;
      const until = e.bannedUntil.get(domain) ?? 0;
      if (until !== 0 && until <= now) e.bannedUntil.delete(domain);
      const cooling = until > now;
      const rank = [tried.has(e) ? 1 : 0, cooling ? 1 : 0, cooling ? until : 0, this.freeAt(e, domain, now), e.lastUsed];
      if (best === null || before(rank, bestRank)) {
        best = e;
        bestRank = rank;
      }
    }
    if (best === null) return { none: 'noslaves' };
    const slot = this.take(best, domain, bestRank[3], now, maxWaitMs);
    if ('exit' in slot) this.stamp(best, now);
    return slot;
  }

  /** The least recently used healthy exit, for no domain in particular (a session created by POST /sessions). */
  leastRecentlyUsed(): Exit | null {
    const now = this.now();
    let best: Exit | null = null;
    for (const e of this.exits) if (e.unhealthyUntil <= now && (best === null || e.lastUsed < best.lastUsed)) best = e;
    if (best) this.stamp(best, now);
    return best;
  }

  /** The next slot for `domain` on one given exit (a session's), whatever its health and bans. */
  reserve(exit: Exit, domain: string, maxWaitMs: number | null = null): Pick {
    const now = this.now();
    return this.take(exit, domain, this.freeAt(exit, domain, now), now, maxWaitMs);
  }

  /** A slot that was not used (the client went away while it waited): the next request may have it. */
  giveBack(slot: Slot, domain: string): void {
    const spacing = this.options.throttle.spacingMs;
    // Only the last slot taken can be given back; the ones after an earlier slot keep their times.
    if (spacing > 0 && slot.exit.nextSlot.get(domain) === slot.slotAt + spacing) slot.exit.nextSlot.set(domain, slot.slotAt);
  }

  /** How long a new request to `domain` would wait now (on `exit`, or on the best exit for it). */
  nextWaitMs(domain: string, exit?: Exit): number {
    if (this.options.throttle.spacingMs === 0) return 0;
    const now = this.now();
    const healthy = this.exits.filter((e) => e.unhealthyUntil <= now);
    const notCooling = healthy.filter((e) => (e.bannedUntil.get(domain) ?? 0) <= now);
    const candidates = exit ? [exit] : notCooling.length ? notCooling : healthy;
    return candidates.length ? Math.min(...candidates.map((e) => this.freeAt(e, domain, now))) - now : 0;
  }

  /** The exit with this id (a session's), if it is healthy. */
  byId(id: string): Exit | null {
    const e = this.exits.find((x) => x.id === id);
    return e && e.unhealthyUntil <= this.now() ? e : null;
  }

  /** A ban of `exit` by `domain`: for the cooldown, the exit is the domain's last choice. */
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

  private stamp(exit: Exit, now: number): void {
    exit.lastUsed = Math.max(now, this.lastStamp + 1);
    this.lastStamp = exit.lastUsed;
  }

  private freeAt(exit: Exit, domain: string, now: number): number {
    const at = exit.nextSlot.get(domain);
    return at === undefined || at <= now ? now : at;
  }

  /** Takes the slot at `free` (pushing the domain's next slot on this exit by the spacing), unless it is past the hard limit or the client's. */
  private take(exit: Exit, domain: string, free: number, now: number, maxWaitMs: number | null): Pick {
    const { spacingMs, hardLimitMs } = this.options.throttle;
    const waitMs = free - now;
    if (waitMs >= hardLimitMs || (maxWaitMs !== null && waitMs > maxWaitMs)) return { none: 'throttled', retryAfterMs: waitMs };
    if (spacingMs > 0) {
      if (exit.nextSlot.size >= SLOTS_PER_EXIT) sweep(exit.nextSlot, now);
      exit.nextSlot.set(domain, free + spacingMs);
    }
    return { exit, slotAt: free, waitMs };
  }
}

/** Whether rank `a` comes before rank `b` (compared element by element). */
function before(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/** Forgets the slots that are past (a domain without an entry is free now). */
function sweep(slots: Map<string, number>, now: number): void {
  for (const [domain, at] of slots) if (at <= now) slots.delete(domain);
  // Still full of pending slots: forget the oldest entries rather than grow without bound.
  for (const domain of slots.keys()) {
    if (slots.size < SLOTS_PER_EXIT) break;
    slots.delete(domain);
  }
}
