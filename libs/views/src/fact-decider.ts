import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventEnvelope, eventProblem } from '@crawlhub/contracts';
import { Consumption, EVENT_LOG, EventLog, LoggedEvent } from '@crawlhub/eventlog';
import { DecisionMarks, EventWriter, ProjectionLagError } from './event-writer';
import { LogDecider, PROJECTION_STORE, ProjectionFailedError, ProjectionStore } from './projection-store.port';

/** Requests read from a log page at a time when deciding what a replay found undecided. */
const PAGE = 500;

/** The views were built by a release that decided while projecting: deciding on them would decide on the end state. */
export class ViewsBuiltBeforeFactsError extends Error {
  constructor(views: string) {
    super(`the ${views} views were built before their decisions were facts in the log: stop the platform and run \`crawlhub replay\` once (docs/DESIGN.md, Upgrading)`);
  }
}

/**
 * Decides a run of a partition's requests in order: answers the fact of a (valid, undecided)
 * request, decided on the views with the run's pending facts (decided, not appended yet) in
 * mind. A decision that must read what a pending fact changes, and cannot lay it over the
 * views itself, calls the run's `fold` first: it appends the pending facts and waits until
 * the views folded them.
 */
export type RunDecider = (e: LoggedEvent, pending: readonly EventEnvelope[]) => Promise<EventEnvelope>;

/** What a decider reads of its views besides what it decides on. */
export interface DecidedViews extends DecisionMarks {
  /** Whether the views were built by a release that decided while projecting. */
  builtBeforeFacts(): Promise<boolean>;
}

/** What one topic's decider is made of; the consumption, exactly-once and upgrade rules are FactDecider's. */
export interface FactRules {
  topic: string;
  /** Its consumer group: one member owns each partition. */
  groupId: string;
  /** The event types of the topic that are requests to decide. */
  requestTypes: readonly string[];
  views: DecidedViews;
  /** The views as named in the message that asks for a replay. */
  viewsNamed: string;
  /** Opens the deciding of a run of requests (a consumed batch, a page of a replay); `fold` as in RunDecider. */
  openRun(fold: () => Promise<void>): RunDecider;
  /**
   * The decisions read plain events of the topic (a touch) that the catch-up does not wait
   * for: each request is decided once the views folded every event before it in the
   * partition, and its fact is appended and folded before the next one is decided.
   */
  oneAtATime?: boolean;
  /** The fact of a request no try could decide. */
  failedFact(e: LoggedEvent, reason: string): EventEnvelope;
}

/** What every fact decider consumes and writes through, injected as one. */
@Injectable()
export class DecidingPorts {
  constructor(
    @Inject(EVENT_LOG) readonly log: EventLog,
    @Inject(PROJECTION_STORE) readonly store: ProjectionStore,
    readonly writer: EventWriter,
  ) {}
}

/**
 * The single decider of a topic's requests: consumes the partitions it owns, decides each
 * request on the views (the fold of the facts before it) and appends what it decided as a
 * fact. A consumed batch is decided as one run (FactRules.openRun): its facts are appended
 * together and folded before the next batch, one append and one wait per batch, not per
 * request, unless a decision needs the pending ones folded first (or the rules decide one
 * at a time).
 *
 * Exactly once in effect: the fold moves the partition's decided-through mark with the
 * fact's documents (one transaction on SQLite, last on MongoDB), and a request at or below
 * the mark is never decided again. After a restart or a rebalance the decider first waits
 * for the views to fold the partition up to its end, so a fact appended just before a
 * crash is folded, and its request skipped, before anything is decided. Were a second fact
 * of a request ever appended (a member that lost its partition still finishing a batch),
 * the fold ignores it.
 */
export class FactDecider implements LogDecider {
  private readonly logger: Logger;
  private consumption: Consumption | null = null;
  private toldLegacy = false;
  /**
   * Per partition, the offset of the last event of the last batch this member handled,
   * while its assignment stays the same: a batch right after it needs no catch-up (every
   * fact since is this member's own, folded before it went on).
   */
  private handledThrough = new Map<number, number>();
  private assignedAs = '';

  private readonly log: EventLog;
  private readonly store: ProjectionStore;
  private readonly writer: EventWriter;

  constructor(ports: DecidingPorts, private readonly rules: FactRules) {
    this.log = ports.log;
    this.store = ports.store;
    this.writer = ports.writer;
    this.logger = new Logger(new.target.name);
  }

  async start(): Promise<void> {
    const { topic } = this.rules;
    await this.log.ensureTopics([topic]);
    this.consumption = await this.log.consume({
      groupId: this.rules.groupId,
      topics: [topic],
      // A log written before decisions were facts is decided from its first request.
      fromBeginning: true,
      // Keys are independent: one slow partition does not hold up the others.
      partitionsConcurrently: 4,
      handler: async (batch) => {
        const requests = batch.events.filter((e) => this.isRequest(e));
        const last = batch.events[batch.events.length - 1].offset;
        const continues = this.continues(batch.partition, batch.events[0].offset);
        if (requests.length === 0) {
          // Nothing to decide (this member's own facts, folded before it went on): the next batch still follows on without a catch-up.
          if (continues) this.handledThrough.set(batch.partition, last);
          return;
        }
        await this.refuseViewsBuiltBeforeFacts();
        if (!continues) await this.viewsCaughtUp(batch.partition);
        this.handledThrough.delete(batch.partition);
        const { decidedBefore } = await this.decideRun(requests, (facts) => this.appendAndFold(facts));
        if (decidedBefore) this.logger.log(`${topic}/${batch.partition}: ${decidedBefore} requests delivered again were decided already (their facts are in the log), not decided twice`);
        this.handledThrough.set(batch.partition, last);
      },
      poison: {
        // The views lagging, or their store down: the batch comes back; never a reason to refuse a request.
        isTransient: (err) => err instanceof ProjectionLagError || err instanceof ViewsBuiltBeforeFactsError || this.store.isStoreFailure(err),
        // A request no try could decide: its fact says so, and its caller gets an error.
        settle: async (e, err) => {
          if (!this.isRequest(e) || e.offset <= (await this.rules.views.decidedThrough(e.partition))) return;
          await this.appendAndFold([this.rules.failedFact(e, err instanceof Error ? err.message : String(err))]);
        },
      },
    });
  }

  async stop(): Promise<void> {
    await this.consumption?.stop();
    this.consumption = null;
    this.handledThrough.clear();
  }

  private isRequest(e: LoggedEvent): boolean {
    return this.rules.requestTypes.includes(e.event.type);
  }

  /** Whether a batch of the partition starting at `offset` directly follows this member's last one, its assignment unchanged. */
  private continues(partition: number, offset: number): boolean {
    const assignedAs = JSON.stringify(this.consumption?.assignment() ?? null);
    if (assignedAs !== this.assignedAs) this.handledThrough.clear();
    this.assignedAs = assignedAs;
    return this.handledThrough.get(partition) === offset - 1;
  }

  async decideUndecided(applyViews: (topics: string[]) => Promise<void>): Promise<number> {
    const { topic } = this.rules;
    await this.log.ensureTopics([topic]);
    const ends = await this.log.endOffsets(topic);
    let decided = 0;
    const publish = async (facts: EventEnvelope[]) => {
      await this.writer.append(topic, facts);
      await applyViews([topic]);
    };
    for (let partition = 0; partition < ends.length; partition++) {
      for (let from = (await this.rules.views.decidedThrough(partition)) + 1; from < ends[partition]; ) {
        const page = await this.log.read(topic, partition, from, PAGE);
        if (page.length === 0) break;
        decided += (await this.decideRun(page.filter((e) => this.isRequest(e)), publish)).decided;
        from = page[page.length - 1].offset + 1;
      }
    }
    if (decided) this.logger.log(`decided ${decided} ${topic} requests the log held without a decision, and appended their facts`);
    return decided;
  }

  /**
   * Decides the requests of a partition in order, each unless its fact is folded already,
   * and publishes their facts: all in one append at the end, or earlier when a decision
   * asks for the pending ones folded (or the rules decide one at a time). Facts decided
   * before a failure are published before it is thrown, so a batch handled again, or
   * request by request, finds them decided.
   */
  private async decideRun(requests: LoggedEvent[], publish: (facts: EventEnvelope[]) => Promise<void>): Promise<{ decided: number; decidedBefore: number }> {
    const pending: EventEnvelope[] = [];
    const fold = async () => {
      if (pending.length) await publish(pending.splice(0));
    };
    const decide = this.rules.openRun(fold);
    let decided = 0;
    let decidedBefore = 0;
    try {
      for (const e of requests) {
        if (e.offset <= (await this.rules.views.decidedThrough(e.partition))) {
          decidedBefore++;
          continue;
        }
        // A request this topic's contract refuses (an older or foreign writer's) is not decided on a guess.
        const problem = eventProblem(this.rules.topic, e.event);
        if (problem !== null) {
          this.logger.warn(`${this.rules.topic}/${e.partition}@${e.offset}: not deciding a malformed request: ${problem}`);
          continue;
        }
        // On the fold of every event before it in the partition: a plain event appended just before (a touch) counts.
        if (this.rules.oneAtATime && e.offset > 0) await this.writer.waitForViews([{ topic: e.topic, partition: e.partition, offset: e.offset - 1 }]).catch(passedAsPoison);
        pending.push(await decide(e, pending));
        decided++;
        if (this.rules.oneAtATime) await fold();
      }
    } finally {
      await fold();
    }
    return { decided, decidedBefore };
  }

  /** Appends facts (one append) and waits until the views folded them: the next decisions read them. */
  private async appendAndFold(facts: EventEnvelope[]): Promise<void> {
    await this.writer.appendAndWait(this.rules.topic, facts).catch(passedAsPoison);
  }

  /** After a start, a rebalance or a batch given again: facts appended meanwhile (by a previous owner) are folded before anything is decided. */
  private async viewsCaughtUp(partition: number): Promise<void> {
    const end = (await this.log.endOffsets(this.rules.topic))[partition];
    if (end > 0) await this.writer.waitForViews([{ topic: this.rules.topic, partition, offset: end - 1 }]).catch(passedAsPoison);
  }

  private async refuseViewsBuiltBeforeFacts(): Promise<void> {
    if (!(await this.rules.views.builtBeforeFacts())) return;
    const err = new ViewsBuiltBeforeFactsError(this.rules.viewsNamed);
    if (!this.toldLegacy) this.logger.error(err.message);
    this.toldLegacy = true;
    throw err;
  }
}

/** The projector passed the position as poison (recorded and logged there): the views are past it all the same. */
function passedAsPoison(err: unknown): void {
  if (!(err instanceof ProjectionFailedError)) throw err;
}
