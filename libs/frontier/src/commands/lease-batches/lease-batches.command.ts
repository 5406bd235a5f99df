import { Actor } from '@crawlhub/contracts';
import { SlotRef } from '../../ports/frontier.view';

/** GET q with `lease=<seconds>` (our extension): batches no other reader holds, leased to this one. */
export class LeaseBatchesCommand {
  constructor(
    readonly slot: SlotRef,
    readonly mincount: number,
    readonly leaseMs: number,
    readonly start: string | null,
    readonly actor: Actor,
  ) {}
}
