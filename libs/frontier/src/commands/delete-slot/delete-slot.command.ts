import { Actor } from '@crawlhub/contracts';
import { SlotRef } from '../../ports/frontier.view';

/** DELETE /hcf/<p>/<f>/s/<slot>: the slot's queue, fingerprints and leases. */
export class DeleteSlotCommand {
  constructor(readonly slot: SlotRef, readonly actor: Actor) {}
}
