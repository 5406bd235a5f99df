import { Inject, Injectable, Logger } from '@nestjs/common';
import { createEvent, EventEnvelope, eventProblem, FRONTIER_DECIDED, FRONTIER_REQUEST_TYPES, FRONTIER_TOPIC, FrontierDecided } from '@crawlhub/contracts';
import { ConsumedBatch, Consumption, EVENT_LOG, EventLog, LoggedEvent } from '@crawlhub/eventlog';
import { AsDecider, EventWriter, LogDecider, PROJECTION_STORE, ProjectionFailedError, ProjectionLagError, ProjectionStore } from '@crawlhub/views';
import { Decided, decideFrontier, FRONTIER_DECIDER_VERSION } from '../domain/decide-frontier';
import { FRONTIER_VIEW, FrontierView } from '../ports/frontier.view';

/** The consumer group of the frontier decider: one member owns each partition of the frontier topic. */
export const FRONTIER_DECIDER_GROUP = 'frontier-decider';

/** Requests read from a log page at a time when deciding what a replay found undecided. */
const PAGE = 500;

/** The views were built by a release that decided while projecting: deciding on them would decide on the end state. */
export class FrontierViewsBuiltBeforeFactsError extends Error {
  constructor() {
    super('the frontier views were built before frontier decisions were facts in the log: stop the platform and run `crawlhub replay` once (docs/DESIGN.md, Upgrading)');
  }
}

const isRequest = (e: LoggedEvent) => FRONTIER_REQUEST_TYPES.includes(e.event.type);

/**
 * The single decider of a slot: consumes the frontier requests of the partitions it owns
 * (group `frontier-decider`), decides each one on the frontier views (the fold of the
 * facts before it: which fingerprints are new and the batches they form, which batches a
 * lease takes) and appends what it decided as a `frontier.decided` fact.
 *
 * The facts of a consumed batch are appended together and the decider waits once until the
 * views have folded them, before the next batch: a request never reads what a pending fact
 * changes, because one for a slot that has a pending fact first has them appended and
 * folded (facts of other slots change nothing it reads).
 *
 * Exactly once in effect: the fold moves the partition's decided-through mark with the
 * fact's documents (one transaction on SQLite, last on MongoDB), and a request at or below
 * the mark is never decided again. After a restart or a rebalance the decider first waits
 * for the views to fold the partition up to its end, so a fact appended just before a
 * crash is folded, and its request skipped, before anything is decided. Were a second fact
 * of a request ever appended (a member that lost its partition still finishing a batch),
 * the fold ignores it.
 */
@AsDecider()
@Injectable()
export class FrontierDecider implements LogDecider {
  private readonly logger = new Logger('FrontierDecider');
  private consumption: Consumption | null = null;
  private toldLegacy = false;
  /**
   * Per partition, the offset of the last event of the last batch this member handled,
   * while its assignment stays the same: a batch right after it needs no catch-up (every
   * fact since is this member's own, folded before it went on).
   */
  private handledThrough = new Map<number, number>();
  private assignedAs = '';

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(PROJECTION_STORE) private readonly store: ProjectionStore,
    private readonly writer: EventWriter,
    @Inject(FRONTIER_VIEW) private readonly view: FrontierView,
  ) {}

  async start(): Promise<void> {
    await this.log.ensureTopics([FRONTIER_TOPIC]);
    this.consumption = await this.log.consume({
      groupId: FRONTIER_DECIDER_GROUP,
      topics: [FRONTIER_TOPIC],
      // A log written before decisions were facts is decided from its first request.
      fromBeginning: true,
      // Slots are independent: one busy partition does not hold up the others.
      partitionsConcurrently: 4,
      handler: (batch) => this.decideBatch(batch),
      poison: {
        // The views lagging, or their store down: the batch comes back; never a reason to refuse a request.
        isTransient: (err) => err instanceof ProjectionLagError || err instanceof FrontierViewsBuiltBeforeFactsError || this.store.isStoreFailure(err),
        // A request no try could decide: its fact says so, and its caller gets an error.
        settle: async (e, err) => {
          if (!isRequest(e) || e.offset <= (await this.view.decidedThrough(e.partition))) return;
          await this.appendAndFold([this.factOf(e, { failed: err instanceof Error ? err.message : String(err) })]);
        },
      },
    });
  }

  async stop(): Promise<void> {
    await this.consumption?.stop();
    this.consumption = null;
    this.handledThrough.clear();
  }

  private async decideBatch(batch: ConsumedBatch): Promise<void> {
    const requests = batch.events.filter(isRequest);
    const last = batch.events[batch.events.length - 1].offset;
    const continues = this.continues(batch.partition, batch.events[0].offset);
    if (requests.length === 0) {
      // Facts only (this member's own, folded before it went on): the next batch still follows on without a catch-up.
      if (continues) this.handledThrough.set(batch.partition, last);
      return;
    }
    await this.refuseViewsBuiltBeforeFacts();
    if (!continues) await this.viewsCaughtUp(batch.partition);
    this.handledThrough.delete(batch.partition);
    const decidedThrough = await this.view.decidedThrough(batch.partition);
    let pending: EventEnvelope<FrontierDecided>[] = [];
    const flush = async () => {
      if (pending.length) await this.appendAndFold(pending);
      pending = [];
    };
    let decidedBefore = 0;
    for (const e of requests) {
      if (e.offset <= decidedThrough) {
        decidedBefore++;
        continue;
      }
      // Its slot's state is what the pending facts change: they are folded first.
      if (pending.some((f) => f.key === e.event.key)) await flush();
      const fact = await this.decide(e);
      if (fact) pending.push(fact);
    }
    await flush();
    if (decidedBefore) this.logger.log(`${FRONTIER_TOPIC}/${batch.partition}: ${decidedBefore} requests delivered again were decided already (their facts are in the log), not decided twice`);
    this.handledThrough.set(batch.partition, last);
  }

  /** Whether a batch of the partition starting at `offset` directly follows this member's last one, its assignment unchanged. */
  private continues(partition: number, offset: number): boolean {
    const assignedAs = JSON.stringify(this.consumption?.assignment() ?? null);
    if (assignedAs !== this.assignedAs) this.handledThrough.clear();
    this.assignedAs = assignedAs;
    return this.handledThrough.get(partition) === offset - 1;
  }

  async decideUndecided(applyViews: (topics: string[]) => Promise<void>): Promise<number> {
    await this.log.ensureTopics([FRONTIER_TOPIC]);
    const ends = await this.log.endOffsets(FRONTIER_TOPIC);
    let decided = 0;
    for (let partition = 0; partition < ends.length; partition++) {
      for (let from = (await this.view.decidedThrough(partition)) + 1; from < ends[partition]; ) {
        const page = await this.log.read(FRONTIER_TOPIC, partition, from, PAGE);
        if (page.length === 0) break;
        for (const e of page.filter(isRequest)) {
          if (e.offset <= (await this.view.decidedThrough(partition))) continue;
          const fact = await this.decide(e);
          if (!fact) continue;
          await this.writer.append(FRONTIER_TOPIC, [fact]);
          await applyViews([FRONTIER_TOPIC]);
          decided++;
        }
        from = page[page.length - 1].offset + 1;
      }
    }
    if (decided) this.logger.log(`decided ${decided} frontier requests the log held without a decision, and appended their facts`);
    return decided;
  }

  /** The fact of one request, decided on the views; null for a request its topic's contract refuses (an older or foreign writer's), which is not decided on a guess. */
  private async decide(e: LoggedEvent): Promise<EventEnvelope<FrontierDecided> | null> {
    const problem = eventProblem(FRONTIER_TOPIC, e.event);
    if (problem !== null) {
      this.logger.warn(`${FRONTIER_TOPIC}/${e.partition}@${e.offset}: not deciding a malformed request: ${problem}`);
      return null;
    }
    const { decision, lines } = await decideFrontier(this.view, { type: e.event.type, data: e.event.data, lines: e.event.lines ?? [], offset: e.offset, at: e.event.occurredAt });
    return this.factOf(e, { decision }, lines);
  }

  /** The fact of a request: in its partition (same key), on behalf of its actor, caused by it. */
  private factOf(e: LoggedEvent, outcome: Pick<FrontierDecided, 'decision' | 'failed'>, lines?: Decided['lines']): EventEnvelope<FrontierDecided> {
    const d = e.event.data as { project: number; frontier: string; slot: string; requestId?: string };
    const data: FrontierDecided = {
      project: d.project,
      frontier: d.frontier,
      slot: d.slot,
      requestId: d.requestId ?? null,
      requestOffset: e.offset,
      requestedAt: e.event.occurredAt,
      deciderVersion: FRONTIER_DECIDER_VERSION,
      ...outcome,
    };
    return createEvent({
      type: FRONTIER_DECIDED,
      key: e.event.key,
      data,
      ...(lines?.length ? { lines } : {}),
      actor: e.event.actor,
      correlationId: e.event.correlationId,
      causationId: e.event.id,
    });
  }

  /** Appends facts and waits until the views folded them: the next decisions read them. */
  private async appendAndFold(facts: EventEnvelope<FrontierDecided>[]): Promise<void> {
    const positions = await this.writer.append(FRONTIER_TOPIC, facts);
    await this.writer.waitForViews(positions.slice(-1)).catch(passedAsPoison);
  }

  /** After a start, a rebalance or a batch given again: facts appended meanwhile (by a previous owner) are folded before anything is decided. */
  private async viewsCaughtUp(partition: number): Promise<void> {
    const end = (await this.log.endOffsets(FRONTIER_TOPIC))[partition];
    if (end > 0) await this.writer.waitForViews([{ topic: FRONTIER_TOPIC, partition, offset: end - 1 }]).catch(passedAsPoison);
  }

  private async refuseViewsBuiltBeforeFacts(): Promise<void> {
    if (!(await this.view.builtBeforeFacts())) return;
    const err = new FrontierViewsBuiltBeforeFactsError();
    if (!this.toldLegacy) this.logger.error(err.message);
    this.toldLegacy = true;
    throw err;
  }
}

/** The projector passed the position as poison (recorded and logged there): the views are past it all the same. */
function passedAsPoison(err: unknown): void {
  if (!(err instanceof ProjectionFailedError)) throw err;
}
