import { Consumer, EachBatchPayload, KafkaMessage, Logger } from 'kafkajs';
import { decodeEvent } from '@crawlhub/contracts';
import { ConsumedBatch, ConsumeOptions, LoggedEvent } from '../../event-log.port';
import { PipelinedPartitions } from '../../pipelined-partitions';

export interface ConsumptionSettings {
  maxBatchEvents: number;
  heartbeatIntervalMs: number;
  stopGraceMs: number;
  maxRetryBackoffMs: number;
}

/** One member of a consumer group. */
export class KafkaConsumption {
  private current: Record<string, number[]> = {};
  private stopping: Promise<void> | null = null;
  /** Resolved when a running handler is no longer waited for (stop, after the grace period). */
  private abandon!: () => void;
  private readonly abandoned = new Promise<void>((resolve) => (this.abandon = resolve));
  private readonly failures = new Map<string, number>();
  private readonly resumeTimers = new Set<NodeJS.Timeout>();
  /** The last commit under way of each partition (`topic\u0000partition`) of a plain consumption. */
  private readonly commits = new Map<string, Promise<void>>();
  /** Set for a pipelined consumption (ConsumeOptions.pipeline). */
  private readonly pipeline: PipelinedPartitions | null;

  constructor(
    private readonly consumer: Consumer,
    private readonly options: ConsumeOptions,
    private readonly logger: Logger,
    private readonly settings: ConsumptionSettings,
  ) {
    this.pipeline = options.pipeline
      ? new PipelinedPartitions(options.pipeline.maxEventsInFlight, {
          commit: (topic, partition, next) => this.commitOffset(topic, partition, next),
          restart: (topic, partition, from, failures, error) => this.restartPipelined(topic, partition, from, failures, error),
        })
      : null;
  }

  assignment(): Record<string, number[]> {
    return this.current;
  }

  async start(partitionsConsumedConcurrently: number): Promise<void> {
    const { consumer, options } = this;
    consumer.on(consumer.events.GROUP_JOIN, (e) => {
      const assignment: Record<string, number[]> = {};
      for (const [topic, partitions] of Object.entries(e.payload.memberAssignment)) {
        assignment[topic] = [...partitions].sort((a, b) => a - b);
      }
      this.current = assignment;
      // Rejoined: kafkajs reads every partition from its committed offset again.
      this.pipeline?.forgetAll();
    });
    consumer.on(consumer.events.CRASH, (e) => {
      this.logger.error('consumer crashed', { groupId: e.payload.groupId, error: String(e.payload.error), restart: e.payload.restart });
      if (!e.payload.restart) this.current = {};
    });
    await consumer.connect();
    await consumer.subscribe({ topics: options.topics, fromBeginning: options.fromBeginning ?? true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently,
      eachBatch: (payload) => (this.pipeline ? this.onPipelinedBatch(payload, this.pipeline) : this.onBatch(payload)),
    });
  }

  stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = (async () => {
        const grace = setTimeout(() => this.abandon(), this.settings.stopGraceMs);
        try {
          // Batches in flight of a pipeline finish (and commit) while the member is still in the group.
          if (this.pipeline) await Promise.race([this.pipeline.idle(), this.abandoned]);
          await Promise.race([Promise.all(this.commits.values()), this.abandoned]);
          await this.consumer.disconnect(); // waits for the batch in progress, then leaves the group
        } finally {
          clearTimeout(grace);
          this.abandon();
          for (const t of this.resumeTimers) clearTimeout(t);
          this.resumeTimers.clear();
          this.current = {};
        }
      })();
    }
    return this.stopping;
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale, pause } = payload;
    const { topic, partition } = batch;
    const slot = `${topic}\u0000${partition}`;
    const messages: KafkaMessage[] = batch.messages;
    for (let i = 0; i < messages.length; i += this.settings.maxBatchEvents) {
      if (this.stopping || !isRunning() || isStale()) return;
      const slice = messages.slice(i, i + this.settings.maxBatchEvents);
      const last = slice[slice.length - 1].offset;
      let outcome: 'done' | 'abandoned';
      try {
        outcome = await this.runHandler({ topic, partition, events: this.decoded(topic, partition, slice) }, heartbeat);
      } catch (err) {
        // Nothing resolved or committed: the next fetch of this partition starts again at
        // the first event of this slice. Pause the partition for a growing backoff first.
        const failures = (this.failures.get(slot) ?? 0) + 1;
        this.failures.set(slot, failures);
        const backoff = this.backoffAfter(failures);
        this.logger.error('event handler failed; the batch will be delivered again', {
          groupId: this.options.groupId,
          topic,
          partition,
          offset: slice[0].offset,
          failures,
          retryInMs: backoff,
          error: err instanceof Error ? err.message : String(err),
        });
        const resume = pause();
        const timer = setTimeout(() => {
          this.resumeTimers.delete(timer);
          resume();
        }, backoff);
        this.resumeTimers.add(timer);
        return;
      }
      if (outcome === 'abandoned') return;
      resolveOffset(last);
      this.failures.delete(slot);
      // The next fetch goes out while the offsets travel (a round trip to the group
      // coordinator per batch held every partition's next batch back); a stopping member
      // waits for them, so the member that takes the partitions next starts after them.
      const committed = this.commitInOrder(topic, partition, Number(last) + 1);
      if (this.stopping) await committed;
    }
  }

  /**
   * A pipelined consumption: each slice is handed to the pipeline and its offset resolved
   * at once, so kafkajs fetches on (its next fetch waits for every batch of the last one:
   * a slow batch would hold up every partition of the member); offsets are committed by
   * the pipeline as batches finish, in order. Waits only when the pipeline is full.
   */
  private async onPipelinedBatch(payload: EachBatchPayload, pipeline: PipelinedPartitions): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale } = payload;
    const { topic, partition } = batch;
    const messages: KafkaMessage[] = batch.messages;
    for (let i = 0; i < messages.length; i += this.settings.maxBatchEvents) {
      if (!pipeline.hasRoom()) await this.whileBeating(pipeline.room(), heartbeat);
      if (this.stopping || !isRunning() || isStale()) return;
      const slice = messages.slice(i, i + this.settings.maxBatchEvents);
      const handle = () => this.options.handler({ topic, partition, events: this.decoded(topic, partition, slice) });
      if (!pipeline.start(topic, partition, Number(slice[0].offset), slice.length, handle)) {
        // Fetched before the partition was restarted at an earlier offset: read from there instead.
        const at = pipeline.position(topic, partition);
        if (at !== undefined) this.seek(topic, partition, at);
        return;
      }
      resolveOffset(slice[slice.length - 1].offset);
    }
  }

  /**
   * Commits `nextOffset` after the partition's earlier commits, so its committed offset only
   * moves forward. A commit that fails is logged, not retried: the next batch's commit
   * covers it, and a member that dies first leaves those events to be done again (at least
   * once), as before.
   */
  private commitInOrder(topic: string, partition: number, nextOffset: number): Promise<void> {
    const slot = `${topic}\u0000${partition}`;
    const committed = (this.commits.get(slot) ?? Promise.resolve()).then(() => this.commitOffset(topic, partition, nextOffset));
    this.commits.set(slot, committed);
    void committed.then(() => {
      if (this.commits.get(slot) === committed) this.commits.delete(slot);
    });
    return committed;
  }

  private async commitOffset(topic: string, partition: number, nextOffset: number): Promise<void> {
    try {
      await this.consumer.commitOffsets([{ topic, partition, offset: String(nextOffset) }]);
    } catch (err) {
      // A rebalance took the partition: its next owner does these events again (at least once).
      this.logger.warn('offset not committed', { groupId: this.options.groupId, topic, partition, offset: nextOffset, error: err instanceof Error ? err.message : String(err) });
    }
  }

  private restartPipelined(topic: string, partition: number, fromOffset: number, failures: number, error: unknown): void {
    const backoff = this.backoffAfter(failures);
    this.logger.error('event handler failed; the partition is read again from its first event not done', {
      groupId: this.options.groupId,
      topic,
      partition,
      offset: fromOffset,
      failures,
      retryInMs: backoff,
      error: error instanceof Error ? error.message : String(error),
    });
    if (this.stopping) return;
    this.seek(topic, partition, fromOffset);
    try {
      this.consumer.pause([{ topic, partitions: [partition] }]);
    } catch {
      return; // not running any more
    }
    const timer = setTimeout(() => {
      this.resumeTimers.delete(timer);
      this.consumer.resume([{ topic, partitions: [partition] }]);
    }, backoff);
    this.resumeTimers.add(timer);
  }

  private seek(topic: string, partition: number, offset: number): void {
    try {
      this.consumer.seek({ topic, partition, offset: String(offset) });
    } catch (err) {
      this.logger.warn('could not seek', { groupId: this.options.groupId, topic, partition, offset, error: err instanceof Error ? err.message : String(err) });
    }
  }

  private decoded(topic: string, partition: number, slice: KafkaMessage[]): LoggedEvent[] {
    return slice.map((m) => {
      if (m.value === null) throw new Error(`record ${topic}/${partition}@${m.offset} has no value`);
      return { topic, partition, offset: Number(m.offset), event: decodeEvent(m.value) };
    });
  }

  private backoffAfter(failures: number): number {
    return Math.min(this.settings.maxRetryBackoffMs, 100 * 2 ** Math.min(failures - 1, 16));
  }

  /** Waits for `work`, heartbeating meanwhile so the member keeps its partitions. */
  private async whileBeating<T>(work: Promise<T>, heartbeat: () => Promise<void>): Promise<T> {
    const beat = setInterval(() => heartbeat().catch(() => undefined), this.settings.heartbeatIntervalMs);
    try {
      return await work;
    } finally {
      clearInterval(beat);
    }
  }

  /** Runs the handler, heartbeating meanwhile; gives up waiting when the member stops. */
  private async runHandler(batch: ConsumedBatch, heartbeat: () => Promise<void>): Promise<'done' | 'abandoned'> {
    const handled = Promise.resolve().then(() => this.options.handler(batch));
    return this.whileBeating(Promise.race([handled.then(() => 'done' as const), this.abandoned.then(() => 'abandoned' as const)]), heartbeat);
  }
}
