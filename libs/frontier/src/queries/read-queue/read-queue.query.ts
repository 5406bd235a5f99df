import { SlotRef } from '../../ports/frontier.view';

/** GET q: whole batches in id order from `start` until `mincount` requests, skipping leased ones (at `now`). */
export class ReadQueueQuery {
  constructor(readonly slot: SlotRef, readonly mincount: number, readonly start: string | null, readonly now: number) {}
}
