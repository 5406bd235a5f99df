import { Inject, Injectable, Logger } from '@nestjs/common';
import { createEvent, EventEnvelope, eventProblem, JOBS_DECIDED, JOBS_REQUESTED_TYPES, JOBS_TOPIC, JobsDecided, JobsRequested } from '@crawlhub/contracts';
import { Consumption, EVENT_LOG, EventLog, LoggedEvent } from '@crawlhub/eventlog';
import { AsDecider, EventWriter, LogDecider, PROJECTION_STORE, ProjectionFailedError, ProjectionLagError, ProjectionStore } from '@crawlhub/views';
import { decideJobs, JOBS_DECIDER_VERSION } from '../domain/decide-jobs';
import { BatchState } from './batch-state';
import { JOBS_VIEW, JobsView } from '../ports/jobs.view';

/** The consumer group of the jobs decider: one member owns each partition of the jobs topic. */
export const JOBS_DECIDER_GROUP = 'jobs-decider';

/** Requests read from a log page at a time when deciding what a replay found undecided. */
const PAGE = 500;

/** The views were built by a release that decided while projecting: deciding on them would decide on the end state. */
export class ViewsBuiltBeforeFactsError extends Error {
  constructor() {
    super('the jobs views were built before job decisions were facts in the log: stop the platform and run `crawlhub replay` once (docs/DESIGN.md, Upgrading)');
  }
}

const isRequest = (e: LoggedEvent) => JOBS_REQUESTED_TYPES.includes(e.event.type);

/**
 * The single decider of a project's jobs: consumes the jobs requests of the partitions it
 * owns (group `jobs-decider`), decides each one on the jobs views (the fold of the facts
 * before it) and appends what it decided as a `jobs.decided` fact. A consumed batch is
 * decided on the views with the documents of its earlier decisions laid over them
 * (BatchState), its facts appended together and folded before the next batch: one append
 * and one wait per batch, not per request (pushes went at some 50 a second one by one).
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
export class JobsDecider implements LogDecider {
  private readonly logger = new Logger('JobsDecider');
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
    @Inject(JOBS_VIEW) private readonly view: JobsView,
  ) {}

  async start(): Promise<void> {
    await this.log.ensureTopics([JOBS_TOPIC]);
    this.consumption = await this.log.consume({
      groupId: JOBS_DECIDER_GROUP,
      topics: [JOBS_TOPIC],
      // A log written before decisions were facts is decided from its first request.
      fromBeginning: true,
      // Projects are independent: one slow partition does not hold up the others.
      partitionsConcurrently: 4,
      handler: async (batch) => {
        const requests = batch.events.filter(isRequest);
        if (requests.length === 0) return;
        await this.refuseViewsBuiltBeforeFacts();
        if (!this.continues(batch.partition, batch.events[0].offset)) await this.viewsCaughtUp(batch.partition);
        this.handledThrough.delete(batch.partition);
        const { decidedBefore } = await this.decideAll(requests, (facts) => this.appendAndFold(facts));
        if (decidedBefore) this.logger.log(`${JOBS_TOPIC}/${batch.partition}: ${decidedBefore} requests delivered again were decided already (their facts are in the log), not decided twice`);
        this.handledThrough.set(batch.partition, batch.events[batch.events.length - 1].offset);
      },
      poison: {
        // The views lagging, or their store down: the batch comes back; never a reason to refuse a request.
        isTransient: (err) => err instanceof ProjectionLagError || err instanceof ViewsBuiltBeforeFactsError || this.store.isStoreFailure(err),
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

  /** Whether a batch of the partition starting at `offset` directly follows this member's last one, its assignment unchanged. */
  private continues(partition: number, offset: number): boolean {
    const assignedAs = JSON.stringify(this.consumption?.assignment() ?? null);
    if (assignedAs !== this.assignedAs) this.handledThrough.clear();
    this.assignedAs = assignedAs;
    return this.handledThrough.get(partition) === offset - 1;
  }

  async decideUndecided(applyViews: (topics: string[]) => Promise<void>): Promise<number> {
    await this.log.ensureTopics([JOBS_TOPIC]);
    const ends = await this.log.endOffsets(JOBS_TOPIC);
    let decided = 0;
    for (let partition = 0; partition < ends.length; partition++) {
      for (let from = (await this.view.decidedThrough(partition)) + 1; from < ends[partition]; ) {
        const page = await this.log.read(JOBS_TOPIC, partition, from, PAGE);
        if (page.length === 0) break;
        const publish = async (facts: EventEnvelope[]) => {
          await this.writer.append(JOBS_TOPIC, facts);
          await applyViews([JOBS_TOPIC]);
        };
        decided += (await this.decideAll(page.filter(isRequest), publish)).decided;
        from = page[page.length - 1].offset + 1;
      }
    }
    if (decided) this.logger.log(`decided ${decided} jobs requests the log held without a decision, and appended their facts`);
    return decided;
  }

  /**
   * Decides the requests of a partition in order, each unless its fact is folded already,
   * and publishes their facts: all in one append at the end, or earlier when a decision
   * asks the views a question the batch's pending documents cannot answer (BatchState).
   * Facts decided before a failure are published before it is thrown, so a batch handled
   * again, or request by request, finds them decided.
   */
  private async decideAll(requests: LoggedEvent[], publish: (facts: EventEnvelope<JobsDecided>[]) => Promise<void>): Promise<{ decided: number; decidedBefore: number }> {
    const facts: EventEnvelope<JobsDecided>[] = [];
    const state = new BatchState(this.view, () => publish(facts.splice(0)));
    let decided = 0;
    let decidedBefore = 0;
    try {
      for (const e of requests) {
        if (e.offset <= (await this.view.decidedThrough(e.partition))) {
          decidedBefore++;
          continue;
        }
        // A request this topic's contract refuses (an older or foreign writer's) is not decided on a guess.
        const problem = eventProblem(JOBS_TOPIC, e.event);
        if (problem !== null) {
          this.logger.warn(`${JOBS_TOPIC}/${e.partition}@${e.offset}: not deciding a malformed request: ${problem}`);
          continue;
        }
        const d = e.event.data as JobsRequested;
        const decision = await decideJobs(state, { project: d.project, at: e.event.occurredAt, order: e.offset }, d.request);
        facts.push(this.factOf(e, { decision }));
        state.add(d.project, decision);
        decided++;
      }
    } finally {
      if (facts.length) await publish(facts.splice(0));
    }
    return { decided, decidedBefore };
  }

  /** The fact of a request: in its partition (same key), on behalf of its actor, caused by it. */
  private factOf(e: LoggedEvent, outcome: Pick<JobsDecided, 'decision' | 'failed'>): EventEnvelope<JobsDecided> {
    const d = e.event.data as JobsRequested;
    const data: JobsDecided = {
      requestId: d.requestId,
      project: d.project,
      op: d.request.op,
      requestOffset: e.offset,
      requestedAt: e.event.occurredAt,
      deciderVersion: JOBS_DECIDER_VERSION,
      ...outcome,
    };
    return createEvent({ type: JOBS_DECIDED, key: e.event.key, data, actor: e.event.actor, correlationId: e.event.correlationId, causationId: e.event.id });
  }

  /** Appends facts (one append) and waits until the views folded them: the next decisions read them. */
  private async appendAndFold(facts: EventEnvelope<JobsDecided>[]): Promise<void> {
    await this.writer.appendAndWait(JOBS_TOPIC, facts).catch(passedAsPoison);
  }

  /** After a start, a rebalance or a batch given again: facts appended meanwhile (by a previous owner) are folded before anything is decided. */
  private async viewsCaughtUp(partition: number): Promise<void> {
    const end = (await this.log.endOffsets(JOBS_TOPIC))[partition];
    if (end > 0) await this.writer.waitForViews([{ topic: JOBS_TOPIC, partition, offset: end - 1 }]).catch(passedAsPoison);
  }

  private async refuseViewsBuiltBeforeFacts(): Promise<void> {
    if (!(await this.view.builtBeforeFacts())) return;
    const err = new ViewsBuiltBeforeFactsError();
    if (!this.toldLegacy) this.logger.error(err.message);
    this.toldLegacy = true;
    throw err;
  }
}

/** The projector passed the position as poison (recorded and logged there): the views are past it all the same. */
function passedAsPoison(err: unknown): void {
  if (!(err instanceof ProjectionFailedError)) throw err;
}
