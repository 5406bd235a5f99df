import { Actor } from '@crawlhub/contracts';

/** Sets a botgroup's `max_running` (null: no limit), or deletes the botgroup (`deleted`). */
export class SetBotgroupCommand {
  constructor(readonly name: string, readonly maxRunning: number | null, readonly deleted: boolean, readonly actor: Actor) {}
}
