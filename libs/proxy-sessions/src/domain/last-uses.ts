/** A session last used at `lastUsed` has expired at `now` when it was idle for longer than `idleMs`. */
export function expired(lastUsed: number, idleMs: number, now: number): boolean {
  return lastUsed + idleMs < now;
}

/**
 * The last uses of sessions seen by one proxy process, per user: the newest use known
 * here (the view may not have it yet), and which of them still have to be sent in a
 * `touched` event.
 */
export class LastUses {
  private readonly uses = new Map<string, Map<string, number>>();
  private readonly unsent = new Map<string, Set<string>>();

  used(user: string, id: string, at: number): void {
    let mine = this.uses.get(user);
    if (!mine) this.uses.set(user, (mine = new Map()));
    mine.set(id, Math.max(at, mine.get(id) ?? 0));
    let ids = this.unsent.get(user);
    if (!ids) this.unsent.set(user, (ids = new Set()));
    ids.add(id);
  }

  /** The last use known here, 0 when none. */
  of(user: string, id: string): number {
    return this.uses.get(user)?.get(id) ?? 0;
  }

  forget(user: string, id: string): void {
    this.uses.get(user)?.delete(id);
    this.unsent.get(user)?.delete(id);
  }

  /** Takes the unsent uses of one user (null when none): they are now being sent. */
  takeUser(user: string): Record<string, number> | null {
    const ids = this.unsent.get(user);
    this.unsent.delete(user);
    if (!ids?.size) return null;
    return Object.fromEntries([...ids].map((id) => [id, this.of(user, id)]));
  }

  /** Takes the unsent uses of every user. */
  takeAll(): Map<string, Record<string, number>> {
    const all = new Map<string, Record<string, number>>();
    for (const user of [...this.unsent.keys()]) {
      const uses = this.takeUser(user);
      if (uses) all.set(user, uses);
    }
    return all;
  }

  /** Uses whose sending failed: sent with the next flush. */
  restore(user: string, uses: Record<string, number>): void {
    for (const [id, at] of Object.entries(uses)) this.used(user, id, at);
  }

  /** Forgets sent uses older than `before` (their sessions have expired). */
  prune(before: number): void {
    for (const [user, mine] of this.uses) {
      const unsent = this.unsent.get(user);
      for (const [id, at] of mine) if (at < before && !unsent?.has(id)) mine.delete(id);
      if (mine.size === 0) this.uses.delete(user);
    }
  }
}
