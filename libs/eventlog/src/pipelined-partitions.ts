/**
 * The bookkeeping of a pipelined consumption (ConsumeOptions.pipeline), shared by both
 * adapters: batches of a partition are handed out one after the other without waiting
 * for the earlier ones to finish, and the partition's offset is committed in order, up to
 * the first batch not done yet. So an event whose work is slow (a page that never
 * answers, held until its deadline) holds up no other event, of its partition or another,
 * while a member that dies still leaves everything from that event on uncommitted, to be
 * done again by the next owner (at least once).
 *
 * A batch that fails (its handler rejects: a failure of the platform, not of the event,
 * which isolatePoisonMessages already settles) makes its partition start again at the
 * first batch not committed: the batches in flight behind it are done again, since
 * committing them would skip it. Delivered batches are matched to the partition's
 * position, so a batch fetched before such a restart is refused rather than run twice
 * out of order.
 */
export interface PipelineHooks {
  /**
   * Records `nextOffset` as the partition's committed offset. A failure is the adapter's to
   * log; it is not retried (a later batch's commit covers it; a crash before then only
   * means those events are done again).
   */
  commit(topic: string, partition: number, nextOffset: number): Promise<void> | void;
  /** The partition must be read again from `fromOffset`, after a backoff growing with `failures` in a row. */
  restart(topic: string, partition: number, fromOffset: number, failures: number, error: unknown): void;
}

interface InFlightBatch {
  first: number;
  next: number;
  done: boolean;
}

interface PartitionState {
  /** Where the next batch handed out must start; undefined: wherever the adapter reads (its committed offset). */
  position: number | undefined;
  /** In offset order; the head is the first batch not committed. */
  batches: InFlightBatch[];
  /** Bumped by a restart or a rebalance: what finishes of an older generation is not committed. */
  generation: number;
  failures: number;
  /** Commits of the partition, one after the other, so offsets only move forward. */
  commits: Promise<void>;
}

export class PipelinedPartitions {
  private readonly partitions = new Map<string, PartitionState>();
  private eventsInFlight = 0;
  private readonly running = new Set<Promise<void>>();
  private waiters: (() => void)[] = [];

  constructor(
    private readonly maxEventsInFlight: number,
    private readonly hooks: PipelineHooks,
  ) {}

  /** Whether another batch may be handed out (the bound is checked before a batch, so one batch may pass it). */
  hasRoom(): boolean {
    return this.eventsInFlight < this.maxEventsInFlight;
  }

  /** Resolves when a batch in flight finishes (at once if there is room). */
  async room(): Promise<void> {
    while (!this.hasRoom()) await new Promise<void>((r) => this.waiters.push(r));
  }

  /** Where the partition's next batch starts, when the pipeline knows it (else: the committed offset). */
  position(topic: string, partition: number): number | undefined {
    return this.partitions.get(slotOf(topic, partition))?.position;
  }

  /**
   * Runs `handle` for a batch of `count` events starting at `first`, without waiting for it;
   * false (nothing run) when the batch does not start where the partition stands.
   */
  start(topic: string, partition: number, first: number, count: number, handle: () => Promise<void>): boolean {
    const slot = slotOf(topic, partition);
    let state = this.partitions.get(slot);
    if (!state) {
      state = { position: undefined, batches: [], generation: 0, failures: 0, commits: Promise.resolve() };
      this.partitions.set(slot, state);
    }
    if (state.position !== undefined && state.position !== first) return false;
    const batch: InFlightBatch = { first, next: first + count, done: false };
    state.batches.push(batch);
    state.position = batch.next;
    this.eventsInFlight += count;
    const generation = state.generation;
    const run = Promise.resolve()
      .then(handle)
      .then(
        () => this.finished(topic, partition, state!, generation, batch),
        (error: unknown) => this.failed(topic, partition, state!, generation, error),
      )
      // The hooks log their own failures: nothing here may reject unhandled.
      .catch(() => undefined)
      .finally(() => {
        this.eventsInFlight -= count;
        this.running.delete(run);
        for (const wake of this.waiters.splice(0)) wake();
      });
    this.running.add(run);
    return true;
  }

  /** The partition is read from its committed offset again (it changed hands), and nothing of it in flight is committed. */
  forget(topic: string, partition: number): void {
    const state = this.partitions.get(slotOf(topic, partition));
    if (!state) return;
    state.generation++;
    state.position = undefined;
    state.batches = [];
  }

  /** After a rebalance, for every partition: see forget. */
  forgetAll(): void {
    for (const slot of this.partitions.keys()) {
      const [topic, partition] = slot.split('\u0000');
      this.forget(topic, Number(partition));
    }
  }

  /** Resolves once every batch handed out has finished (and its commit, if any, was made). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    await Promise.allSettled([...this.partitions.values()].map((s) => s.commits));
  }

  private finished(topic: string, partition: number, state: PartitionState, generation: number, batch: InFlightBatch): Promise<void> | void {
    if (state.generation !== generation) return;
    batch.done = true;
    let next: number | undefined;
    while (state.batches.length > 0 && state.batches[0].done) next = state.batches.shift()!.next;
    if (next === undefined) return;
    state.failures = 0;
    const offset = next;
    state.commits = state.commits.then(() => this.hooks.commit(topic, partition, offset)).catch(() => undefined);
    return state.commits;
  }

  private failed(topic: string, partition: number, state: PartitionState, generation: number, error: unknown): void {
    if (state.generation !== generation) return;
    const from = state.batches[0].first;
    state.generation++;
    state.batches = [];
    state.position = from;
    state.failures++;
    this.hooks.restart(topic, partition, from, state.failures, error);
  }
}

function slotOf(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}
