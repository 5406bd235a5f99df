import { Actor } from '@crawlhub/contracts';
import { SlotRef } from '../../ports/frontier.view';

/** POST /hcf/<p>/<f>/s/<slot>/q/deleted: JSON lines of batch ids (strings, or arrays of them). */
export class DeleteBatchesCommand {
  constructor(readonly slot: SlotRef, readonly body: AsyncIterable<Buffer>, readonly actor: Actor) {}
}
