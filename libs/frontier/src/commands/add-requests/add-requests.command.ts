import { Actor } from '@crawlhub/contracts';
import { SlotRef } from '../../ports/frontier.view';

/** POST /hcf/<p>/<f>/s/<slot>: JSON lines of request objects; answers the newcount. */
export class AddRequestsCommand {
  constructor(readonly slot: SlotRef, readonly body: AsyncIterable<Buffer>, readonly actor: Actor) {}
}
