import { Inject, Injectable } from '@nestjs/common';
import {
  FRONTIER_BATCHES_DELETED, FRONTIER_BATCHES_LEASED, FRONTIER_REQUESTS_ADDED, FRONTIER_SLOT_DELETED, FRONTIER_TOPIC,
  FrontierBatchesDeleted, FrontierBatchesLeased, FrontierRequestsAdded, FrontierSlotDeleted,
} from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { firstOccurrences, planBatches, QueuedRequest } from '../domain/batches';
import { LeasePicker } from '../domain/lease';
import { decodeRequestLine } from '../domain/requests';
import { FRONTIER_VIEW, FrontierView, SlotRef } from '../ports/frontier.view';

/** Outcomes are kept this long (event time), then pruned: the API reads them within seconds. */
export const OUTCOME_RETENTION_MS = 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 1000;
const LEASE_PAGE = 200;

/**
 * The single decider of a slot: applies its events in log order. For added requests it
 * decides which fingerprints are new, forms the batches and records `newcount`; for a
 * lease it picks the batches and records their ids. A decision already recorded (an
 * event applied again after a crash on MongoDB) is not taken again.
 */
@AsProjection()
@Injectable()
export class FrontierProjection implements Projection {
  readonly topics = [FRONTIER_TOPIC];
  private lastPrune = 0;

  constructor(@Inject(FRONTIER_VIEW) private readonly view: FrontierView) {}

  async apply(e: LoggedEvent): Promise<void> {
    const { event } = e;
    switch (event.type) {
      case FRONTIER_REQUESTS_ADDED: {
        const d = event.data as FrontierRequestsAdded;
        if (await this.view.outcome(d.requestId)) return;
        const slot = slotOf(d);
        const requests = firstOccurrences((event.lines ?? []).filter((l) => l !== '').map(decodeRequestLine));
        const isNew = requests.length ? await this.view.addFingerprints(e, slot, requests.map(fingerprintOf)) : [];
        const fresh = requests.filter((_, i) => isNew[i]);
        if (fresh.length) await this.view.putBatches(e, slot, planBatches(e.offset, fresh));
        await this.view.saveOutcome(e, d.requestId, event.occurredAt, { newcount: fresh.length });
        return this.prune(e);
      }
      case FRONTIER_BATCHES_LEASED: {
        const d = event.data as FrontierBatchesLeased;
        if (await this.view.outcome(d.requestId)) return;
        const slot = slotOf(d);
        const picker = new LeasePicker(d.mincount, event.occurredAt, e.offset);
        let range: { from?: string; after?: string } = d.start === null ? {} : { from: d.start };
        for (;;) {
          const page = await this.view.leaseCandidates(slot, range, LEASE_PAGE);
          if (picker.offer(page) || page.length < LEASE_PAGE) break;
          range = { after: page[page.length - 1].id };
        }
        if (picker.ids.length) await this.view.lease(e, slot, picker.ids, event.occurredAt + d.leaseMs);
        await this.view.saveOutcome(e, d.requestId, event.occurredAt, { leased: picker.ids });
        return this.prune(e);
      }
      case FRONTIER_BATCHES_DELETED: {
        const d = event.data as FrontierBatchesDeleted;
        if (d.ids.length) await this.view.deleteBatches(e, slotOf(d), d.ids);
        return;
      }
      case FRONTIER_SLOT_DELETED:
        return this.view.deleteSlot(e, slotOf(event.data as FrontierSlotDeleted));
    }
  }

  /** At most once a minute (event time), forgets outcomes older than the retention. */
  private async prune(e: LoggedEvent): Promise<void> {
    const now = e.event.occurredAt;
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await this.view.pruneOutcomes(e, now - OUTCOME_RETENTION_MS);
  }
}

function slotOf(d: { project: number; frontier: string; slot: string }): SlotRef {
  return { project: d.project, frontier: d.frontier, slot: d.slot };
}

function fingerprintOf(r: QueuedRequest): { fp: string; fdata: string | null } {
  return { fp: r.fp, fdata: r.fdata === null ? null : JSON.stringify(r.fdata) };
}
