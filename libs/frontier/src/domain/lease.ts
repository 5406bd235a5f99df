/** A queued batch as the lease decision sees it. */
export interface LeaseCandidate {
  id: string;
  count: number;
  /** ms; 0 when never leased. */
  leasedUntil: number;
}

/** Default `mincount` of a queue read: whole batches until at least this many requests. */
export const DEFAULT_MINCOUNT = 100;

/** Whether a lease request at time `at` may take the batch: its lease has expired (or it never had one). */
export function leasable(b: LeaseCandidate, at: number): boolean {
  return b.leasedUntil <= at;
}

/**
 * Walks candidates in id order and takes the leasable ones until they hold `mincount`
 * requests (at least one batch when any is leasable). Feed it pages: it says when done.
 */
export class LeasePicker {
  readonly ids: string[] = [];
  private total = 0;

  constructor(private readonly mincount: number, private readonly at: number) {}

  get done(): boolean {
    return this.ids.length > 0 && this.total >= this.mincount;
  }

  /** Offers the next candidates (in id order); returns true once enough are taken. */
  offer(page: LeaseCandidate[]): boolean {
    for (const b of page) {
      if (this.done) break;
      if (!leasable(b, this.at)) continue;
      this.ids.push(b.id);
      this.total += b.count;
    }
    return this.done;
  }
}

/**
 * The same "whole batches until mincount" rule for plain reads: how many of `counts`
 * (in order) a read returns given what it has returned so far.
 */
export function enough(returnedBatches: number, returnedRequests: number, mincount: number): boolean {
  return returnedBatches > 0 && returnedRequests >= mincount;
}
