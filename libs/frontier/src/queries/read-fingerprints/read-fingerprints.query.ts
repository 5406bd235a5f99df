import { SlotRef } from '../../ports/frontier.view';

/** GET f: the slot's fingerprints in byte order, from `start` (inclusive) or after `startafter`, at most `count`. */
export class ReadFingerprintsQuery {
  constructor(readonly slot: SlotRef, readonly range: { from?: string; after?: string }, readonly count: number | null) {}
}
