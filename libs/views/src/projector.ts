import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { EVENT_LOG, EventLog, Consumption, LoggedEvent } from '@crawlhub/eventlog';
import { Projection, PROJECTION_STORE, ProjectionStore } from './projection-store.port';
import { PROJECTION_METADATA } from './projection.decorator';

export const PROJECTOR_GROUP = 'projector';
const PAGE = 500;

/**
 * Builds every view from the log. At start it catches each partition up from its
 * checkpoint (so wiped views rebuild themselves), then consumes as a member of the
 * `projector` group, so several projector processes share the partitions.
 */
@Injectable()
export class Projector implements OnModuleDestroy {
  private readonly logger = new Logger('Projector');
  private projections: Projection[] = [];
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

  topics(): string[] {
    return [...new Set(this.discover().flatMap((p) => p.topics))].sort();
  }

  private async dispatch(e: LoggedEvent): Promise<void> {
    for (const p of this.projections) if (p.topics.includes(e.topic)) await p.apply(e);
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
    this.consumption = await this.log.consume({
      groupId: PROJECTOR_GROUP,
      topics,
      handler: (batch) => this.store.applyBatch(batch.topic, batch.partition, batch.events, (e) => this.dispatch(e)).catch((err) => {
        this.logger.error(`applying ${batch.topic}/${batch.partition} from offset ${batch.events[0]?.offset} failed: ${err}`);
        throw err;
      }),
    });
    this.logger.log(`projecting ${this.projections.length} views from topics ${topics.join(', ')}`);
  }

  /** Applies every partition from its checkpoint to the end of the log; progress is per topic. */
  async catchUp(topics: string[], progress: (topic: string, applied: number, total: number) => void): Promise<number> {
    let applied = 0;
    for (const topic of topics) {
      const ends = await this.log.endOffsets(topic);
      const total = ends.reduce((a, b) => a + b, 0);
      let appliedInTopic = 0;
      for (let partition = 0; partition < ends.length; partition++) {
        let from = await this.store.nextOffset(topic, partition);
        while (from < ends[partition]) {
          const events = await this.log.read(topic, partition, from, PAGE);
          if (events.length === 0) break;
          await this.store.applyBatch(topic, partition, events, (e) => this.dispatch(e));
          applied += events.length;
          appliedInTopic += events.length;
          from = events[events.length - 1].offset + 1;
          progress(topic, appliedInTopic, total);
        }
      }
    }
    return applied;
  }

  /** `crawlhub replay`: drop every view and rebuild it from offset 0. */
  async replay(progress: (topic: string, applied: number, total: number) => void): Promise<number> {
    const topics = this.topics();
    await this.log.ensureTopics(topics);
    await this.store.reset();
    return this.catchUp(topics, progress);
  }

  onModuleDestroy(): Promise<void> {
    return this.stop();
  }

  async stop(): Promise<void> {
    await this.consumption?.stop();
    this.consumption = null;
  }
}
