/** A partition of a topic, as the embedded log's append notification names it. */
export type PartitionSlot = string;

export function partitionSlot(topic: string, partition: number): PartitionSlot {
  return `${topic}\u0000${partition}`;
}

function topicOfSlot(slot: PartitionSlot): string {
  return slot.slice(0, slot.indexOf('\u0000'));
}

/**
 * Which of its assigned partitions a consumer of the embedded log reads in its next pass.
 *
 * Reading a partition that has nothing new still costs two queries (its committed offset
 * and the empty read), and a consumer woken by every append used to read every partition
 * of every topic it follows: in the storage ingest bench the projector's thread spent more
 * CPU on those empty reads than on folding the events. Now a partition is read when this
 * process appended to it (the log's notification names the partitions), and again after
 * each read that found events, until a read finds nothing new. Every assigned partition is
 * read at the first pass, after a rebalance, and then again and again, because another
 * process sharing the file cannot notify this one: every poll interval while such passes
 * find events nobody notified (another process is writing), and less often while they find
 * none, the interval doubling up to SLOWEST_FULL_PASS_MS (an idle platform read 14 topics'
 * partitions ten times a second in each consumer: a tenth of a core).
 */
export class PartitionsToRead {
  /** How long another process's append may wait, at most, to be seen after a quiet time. */
  static readonly SLOWEST_FULL_PASS_MS = 1_000;

  private readonly marked = new Set<PartitionSlot>();
  /** When the next pass reads every assigned partition (performance.now() time). */
  private allDueAt = -Infinity;
  private fullPassEveryMs: number;
  /** Partitions the last full pass read without a notification naming them. */
  private readonly unnotified = new Set<PartitionSlot>();
  /** The last full pass found events in one of them: another process appends. */
  private foundUnnotified = true;
  /** A notification for this consumer's topics came since the current pass started. */
  private notified = false;
  private waiter: (() => void) | null = null;

  constructor(
    private readonly topics: ReadonlySet<string>,
    private readonly pollIntervalMs: number,
  ) {
    this.fullPassEveryMs = pollIntervalMs;
  }

  /** The log appended to these partitions (from any thread of this process). */
  appended(slots: readonly PartitionSlot[]): void {
    let ours = false;
    for (const slot of slots) {
      if (!this.topics.has(topicOfSlot(slot))) continue;
      this.marked.add(slot);
      ours = true;
    }
    if (!ours) return;
    this.notified = true;
    this.waiter?.();
  }

  /** Ends a wait at once (the consumer stops). */
  interrupt(): void {
    this.waiter?.();
  }

  /** The next pass reads every assigned partition (the assignment changed). */
  readAll(): void {
    this.allDueAt = -Infinity;
  }

  /** The partitions of `assignment` to read in this pass, in the assignment's order. */
  pass(assignment: Record<string, number[]>): [string, number][] {
    this.notified = false;
    const now = performance.now();
    const all = now >= this.allDueAt;
    if (all) {
      const slowest = Math.max(this.pollIntervalMs, PartitionsToRead.SLOWEST_FULL_PASS_MS);
      this.fullPassEveryMs = this.foundUnnotified ? this.pollIntervalMs : Math.min(slowest, this.fullPassEveryMs * 2);
      this.allDueAt = now + this.fullPassEveryMs;
      this.foundUnnotified = false;
      this.unnotified.clear();
    }
    const toRead: [string, number][] = [];
    for (const [topic, partitions] of Object.entries(assignment)) {
      for (const partition of partitions) {
        const slot = partitionSlot(topic, partition);
        if (all && !this.marked.has(slot)) {
          this.marked.add(slot);
          this.unnotified.add(slot);
        }
        if (this.marked.has(slot)) toRead.push([topic, partition]);
      }
    }
    return toRead;
  }

  /**
   * What a read of the partition found. Nothing new: it is read again when appended to (or
   * at the next full pass). Events: it is read again in the next pass.
   */
  read(topic: string, partition: number, foundEvents: boolean): void {
    const slot = partitionSlot(topic, partition);
    if (!foundEvents) this.marked.delete(slot);
    else if (this.unnotified.has(slot)) this.foundUnnotified = true;
  }

  /**
   * Resolves at once when stopping or when a notification came since the pass started;
   * otherwise at the next notification for this consumer's topics, or when a pass of
   * every partition is due.
   */
  untilAppendedOrDue(stopping: boolean): Promise<void> {
    if (stopping || this.notified) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiter = null;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, this.allDueAt - performance.now()));
      this.waiter = done;
    });
  }
}
