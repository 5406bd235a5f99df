import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { ConsumedBatch, ConsumeOptions, Consumption, EVENT_LOG, EventLog, isolatePoisonMessages, LoggedEvent, PoisonPolicy } from '@crawlhub/eventlog';
import { eventProblem, MalformedEventError } from '@crawlhub/contracts';
import { LogDecider, Projection, PROJECTION_STORE, ProjectionStore } from './projection-store.port';
import { DECIDER_METADATA, PROJECTION_METADATA } from './projection.decorator';

export const PROJECTOR_GROUP = 'projector';
const PAGE = 500;

/**
 * Builds every view from the log. At start it catches each partition up from its
 * checkpoint (so wiped views rebuild themselves), then consumes as a member of the
 * `projector` group, so several projector processes share the partitions. It runs the
 * deciders (LogDecider) beside it: they read the views it folds from their facts.
 */
@Injectable()
export class Projector implements OnModuleDestroy {
  private readonly logger = new Logger('Projector');
  private projections: Projection[] = [];
  private deciders: LogDecider[] | null = null;
  private consumption: Consumption | null = null;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(PROJECTION_STORE) private readonly store: ProjectionStore,
    private readonly discovery: DiscoveryService,
  ) {}

  private discover(): Projection[] {
    if (this.projections.length === 0) {
      this.projections = this.discovery
        .getProviders()
        .filter((w) => w.metatype && w.instance && Reflect.getMetadata(PROJECTION_METADATA, w.metatype as object))
        .map((w) => w.instance as Projection);
    }
    return this.projections;
  }

  private discoverDeciders(): LogDecider[] {
    this.deciders ??= this.discovery
      .getProviders()
      .filter((w) => w.metatype && w.instance && Reflect.getMetadata(DECIDER_METADATA, w.metatype as object))
      .map((w) => w.instance as LogDecider);
    return this.deciders;
  }

  topics(): string[] {
    return [...new Set(this.discover().flatMap((p) => p.topics))].sort();
  }

  /** A malformed event (one a foreign or older producer wrote) is never folded: it takes the poison path below, recorded and skipped. */
  private async dispatch(e: LoggedEvent): Promise<void> {
    const problem = eventProblem(e.topic, e.event);
    if (problem !== null) throw new MalformedEventError(e.topic, e.event.type, problem);
    for (const p of this.projections) if (p.topics.includes(e.topic)) await p.apply(e);
  }

  /**
   * An event no projection can apply (after its retries, each in its own transaction) is
   * recorded in the store's `projection_failures` with its error, logged once and skipped,
   * so the other keys of its partition progress; the write that made it fails instead of
   * answering "stored" (ProjectionFailedError). A failure of the store itself never
   * skips an event: the batch waits and comes back. Why, in docs/DESIGN.md.
   */
  private readonly poison: PoisonPolicy = {
    attempts: 5,
    isTransient: (e) => this.store.isStoreFailure(e),
    settle: (m, error) => this.store.skipFailed(m, error instanceof Error ? error.message : String(error)),
  };

  private applyBatch(batch: ConsumedBatch): Promise<void> {
    return this.store.applyBatch(batch.topic, batch.partition, batch.events, (e) => this.dispatch(e)).catch((err) => {
      if (this.store.isStoreFailure(err)) this.logger.warn(`applying ${batch.topic}/${batch.partition} from offset ${batch.events[0]?.offset} failed, retrying: ${err}`);
      throw err;
    });
  }

  /** The projector's consumption: catch-up applies batches through the same poison isolation as the group. */
  private consumeOptions(topics: string[]): ConsumeOptions {
    return { groupId: PROJECTOR_GROUP, topics, handler: (batch) => this.applyBatch(batch), poison: this.poison };
  }

  /**
   * Catches up and joins the group. A log that is not ready yet (a Kafka broker still
   * electing leaders, say) is retried with backoff for about a minute before giving up.
   */
  async start(): Promise<void> {
    const topics = this.topics();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.log.ensureTopics(topics);
        await this.catchUp(topics, () => undefined);
        break;
      } catch (err) {
        if (attempt >= 12) throw err;
        this.logger.warn(`catching up failed (attempt ${attempt}), retrying: ${err}`);
        await new Promise((r) => setTimeout(r, Math.min(10_000, 250 * 2 ** attempt)));
      }
    }
    // The deciders join their groups while the projector joins its own (a Kafka group join takes seconds).
    const [consumption] = await Promise.all([this.log.consume(this.consumeOptions(topics)), ...this.discoverDeciders().map((d) => d.start())]);
    this.consumption = consumption;
    this.logger.log(`projecting ${this.projections.length} views from topics ${topics.join(', ')}`);
  }

  /** Applies every partition from its checkpoint to the end of the log; progress is per topic. */
  async catchUp(topics: string[], progress: (topic: string, applied: number, total: number) => void): Promise<number> {
    let applied = 0;
    const apply = isolatePoisonMessages(this.consumeOptions(topics));
    for (const topic of topics) {
      const ends = await this.log.endOffsets(topic);
      const total = ends.reduce((a, b) => a + b, 0);
      let appliedInTopic = 0;
      for (let partition = 0; partition < ends.length; partition++) {
        let from = await this.store.nextOffset(topic, partition);
        while (from < ends[partition]) {
          const events = await this.log.read(topic, partition, from, PAGE);
          if (events.length === 0) break;
          await apply({ topic, partition, events });
          applied += events.length;
          appliedInTopic += events.length;
          from = events[events.length - 1].offset + 1;
          progress(topic, appliedInTopic, total);
        }
      }
    }
    return applied;
  }

  /**
   * `crawlhub replay`: drop every view and rebuild it from offset 0, folding facts only.
   * Requests that have no fact yet (a log written before decisions were facts) are then
   * decided once, in log order, and their facts appended and folded: the upgrade path.
   */
  async replay(progress: (topic: string, applied: number, total: number) => void): Promise<number> {
    const topics = this.topics();
    await this.log.ensureTopics(topics);
    await this.store.reset();
    let applied = await this.catchUp(topics, progress);
    for (const decider of this.discoverDeciders()) {
      await decider.decideUndecided(async (deciderTopics) => {
        applied += await this.catchUp(deciderTopics, () => undefined);
      });
    }
    return applied;
  }

  onModuleDestroy(): Promise<void> {
    return this.stop();
  }

  async stop(): Promise<void> {
    for (const decider of this.discoverDeciders()) await decider.stop();
    await this.consumption?.stop();
    this.consumption = null;
  }
}
