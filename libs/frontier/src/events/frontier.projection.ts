import { Inject, Injectable } from '@nestjs/common';
import { FRONTIER_DECIDED, FRONTIER_TOPIC, FrontierDecided } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { QueuedRequest, storedBatches } from '../domain/batches';
import { decodeRequestLine } from '../domain/requests';
import { slotOf } from '../domain/slot';
import { FRONTIER_VIEW, FrontierView } from '../ports/frontier.view';

/** Answers are kept this long (request time), then pruned: the API reads them within seconds. */
export const OUTCOME_RETENTION_MS = 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 1000;

/**
 * The frontier views: a plain fold over the facts of the `frontier` topic. A
 * `frontier.decided` fact writes what its decision carries (the new fingerprints and the
 * batches they form, the batches a lease took, the batches or the slot removed), records
 * the answer under its request id and moves the partition's decided-through mark, all
 * with the same checkpoint; a fact for a request at or below the mark (a second fact of a
 * request: a decider that died after appending, before it knew) is ignored, so a decision
 * takes effect once. Requests are not applied at all: FrontierDecider decides them.
 */
@AsProjection()
@Injectable()
export class FrontierProjection implements Projection {
  readonly topics = [FRONTIER_TOPIC];
  private lastPrune = 0;

  constructor(@Inject(FRONTIER_VIEW) private readonly view: FrontierView) {}

  async apply(e: LoggedEvent): Promise<void> {
    if (e.event.type !== FRONTIER_DECIDED) return;
    const d = e.event.data as FrontierDecided;
    if (d.requestOffset <= (await this.view.decidedThrough(e.partition))) return;
    if (d.decision !== undefined) await this.applyDecision(e, d, d.decision);
    // Last: on MongoDB (no transactions) a caller that sees the mark finds the documents written.
    await this.view.markDecided(e, e.partition, d.requestOffset);
  }

  private async applyDecision(e: LoggedEvent, d: FrontierDecided, decision: NonNullable<FrontierDecided['decision']>): Promise<void> {
    const slot = slotOf(d);
    switch (decision.op) {
      case 'add': {
        const fresh = (e.event.lines ?? []).filter((l) => l !== '').map(decodeRequestLine);
        if (fresh.length) {
          await this.view.addFingerprints(e, slot, fresh.map(fingerprintOf));
          await this.view.putBatches(e, slot, storedBatches(decision.batches, fresh));
        }
        if (d.requestId !== null) await this.view.saveOutcome(e, d.requestId, d.requestedAt, { newcount: decision.newcount });
        return this.prune(e, d.requestedAt);
      }
      case 'lease':
        if (decision.leased.length) await this.view.lease(e, slot, decision.leased, decision.until);
        if (d.requestId !== null) await this.view.saveOutcome(e, d.requestId, d.requestedAt, { leased: decision.leased });
        return this.prune(e, d.requestedAt);
      case 'delete-batches':
        if (decision.ids.length) await this.view.deleteBatches(e, slot, decision.ids);
        return;
      case 'delete-slot':
        return this.view.deleteSlot(e, slot);
    }
  }

  /** At most once a minute (request time), forgets answers older than the retention. */
  private async prune(e: LoggedEvent, now: number): Promise<void> {
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await this.view.pruneOutcomes(e, now - OUTCOME_RETENTION_MS);
  }
}

function fingerprintOf(r: QueuedRequest): { fp: string; fdata: string | null } {
  return { fp: r.fp, fdata: r.fdata === null ? null : JSON.stringify(r.fdata) };
}
