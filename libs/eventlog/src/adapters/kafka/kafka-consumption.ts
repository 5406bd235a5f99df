import { Consumer, EachBatchPayload, KafkaMessage, Logger } from 'kafkajs';
import { decodeEvent } from '@crawlhub/contracts';
import { ConsumedBatch, ConsumeOptions, LoggedEvent } from '../../event-log.port';

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

  constructor(
    private readonly consumer: Consumer,
    private readonly options: ConsumeOptions,
    private readonly logger: Logger,
    private readonly settings: ConsumptionSettings,
  ) {}

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
      eachBatch: (payload) => this.onBatch(payload),
    });
  }

  stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = (async () => {
        const grace = setTimeout(() => this.abandon(), this.settings.stopGraceMs);
        try {
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
    const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale, pause } = payload;
    const { topic, partition } = batch;
    const slot = `${topic}\u0000${partition}`;
    const messages: KafkaMessage[] = batch.messages;
    for (let i = 0; i < messages.length; i += this.settings.maxBatchEvents) {
      if (this.stopping || !isRunning() || isStale()) return;
      const slice = messages.slice(i, i + this.settings.maxBatchEvents);
      const last = slice[slice.length - 1].offset;
      let outcome: 'done' | 'abandoned';
      try {
        const events: LoggedEvent[] = slice.map((m) => {
          if (m.value === null) throw new Error(`record ${topic}/${partition}@${m.offset} has no value`);
          return { topic, partition, offset: Number(m.offset), event: decodeEvent(m.value) };
        });
        outcome = await this.runHandler({ topic, partition, events }, heartbeat);
      } catch (err) {
        // Nothing resolved or committed: the next fetch of this partition starts again at
        // the first event of this slice. Pause the partition for a growing backoff first.
        const failures = (this.failures.get(slot) ?? 0) + 1;
        this.failures.set(slot, failures);
        const backoff = Math.min(this.settings.maxRetryBackoffMs, 100 * 2 ** Math.min(failures - 1, 16));
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
      await commitOffsetsIfNecessary({
        topics: [{ topic, partitions: [{ partition, offset: String(Number(last) + 1) }] }],
      });
      resolveOffset(last);
      this.failures.delete(slot);
    }
  }

  /** Runs the handler, heartbeating meanwhile; gives up waiting when the member stops. */
  private async runHandler(batch: ConsumedBatch, heartbeat: () => Promise<void>): Promise<'done' | 'abandoned'> {
    const handled = Promise.resolve().then(() => this.options.handler(batch));
    const beat = setInterval(() => heartbeat().catch(() => undefined), this.settings.heartbeatIntervalMs);
    try {
      return await Promise.race([handled.then(() => 'done' as const), this.abandoned.then(() => 'abandoned' as const)]);
    } finally {
      clearInterval(beat);
    }
  }
}
