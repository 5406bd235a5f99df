import { SlotRef } from '../../ports/frontier.view';

/** GET q/count: queued requests of up to `maxBatches` batches from `start`. */
export class CountQueueQuery {
  constructor(readonly slot: SlotRef, readonly start: string | null, readonly maxBatches: number) {}
}
