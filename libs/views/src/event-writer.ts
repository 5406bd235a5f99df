import { Inject, Injectable } from '@nestjs/common';
import { Clock, CLOCK, createEvent, EventEnvelope, eventProblem, Ids, IDS, MalformedEventError, NewEvent } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { EVENT_LOG, EventLog, LogPosition } from '@crawlhub/eventlog';
import { PROJECTION_STORE, ProjectionStore } from './projection-store.port';

/** Longest pause between two looks at a decider's views while a decision is awaited (a projector in another process wakes nobody). */
const MAX_DECISION_POLL_MS = 20;

/** What a decider's views tell of how far they folded its facts (FactDecider's DecidedViews). */
export interface DecisionMarks {
  /** The offset of the last request of the partition whose fact the views folded (-1: none). */
  decidedThrough(partition: number): Promise<number>;
}

/** The views did not catch up within the bound: the write is durable, the answer is 503. */
export class ProjectionLagError extends Error {
  constructor() {
    super('the write is stored but the views are not up to date yet (projector down or lagging); retry');
  }
}

/**
 * The one way commands publish events: append them (durable once this resolves) and,
 * for read-your-writes, wait until the projector has applied them.
 */
@Injectable()
export class EventWriter {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(PROJECTION_STORE) private readonly store: ProjectionStore,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    /** The process's CLOCK and IDS, also for what travels with the events (upload ids). */
    @Inject(CLOCK) readonly clock: Clock,
    @Inject(IDS) readonly ids: Ids,
  ) {}

  /** A new event, its id and time from the process's CLOCK and IDS. */
  createEvent<T>(e: NewEvent<T>): EventEnvelope<T> {
    return createEvent(e, { clock: this.clock, ids: this.ids });
  }

  private readonly knownTopics = new Set<string>();

  /** Appends the events, each checked against its topic's contract first: a malformed one is a bug of its writer, and never enters the log. */
  async append(topic: string, events: EventEnvelope[]): Promise<LogPosition[]> {
    for (const e of events) {
      const problem = eventProblem(topic, e);
      if (problem !== null) throw new MalformedEventError(topic, e.type, problem);
    }
    if (!this.knownTopics.has(topic)) {
      await this.log.ensureTopics([topic]);
      this.knownTopics.add(topic);
    }
    return this.log.append(topic, events);
  }

  async waitForViews(positions: LogPosition[]): Promise<void> {
    if (!(await this.store.waitFor(positions, this.config.readYourWritesTimeoutMs))) throw new ProjectionLagError();
  }

  /**
   * Until the views have folded the fact a decider appended for `request` (its partition's
   * decided-through mark reaches it: the fact and the documents it wrote are readable);
   * ProjectionLagError (503) after the read-your-writes bound.
   */
  async waitForDecision(views: DecisionMarks, request: LogPosition): Promise<void> {
    const deadline = performance.now() + this.config.readYourWritesTimeoutMs;
    for (let pause = 1; (await views.decidedThrough(request.partition)) < request.offset; pause = Math.min(MAX_DECISION_POLL_MS, pause * 2)) {
      const left = deadline - performance.now();
      if (left <= 0) throw new ProjectionLagError();
      // Woken at once when a projector of this process applies a batch.
      await this.store.nextChange(Math.min(left, pause));
    }
  }

  async appendAndWait(topic: string, events: EventEnvelope[]): Promise<LogPosition[]> {
    const positions = await this.append(topic, events);
    await this.waitForViews(positions);
    return positions;
  }
}
