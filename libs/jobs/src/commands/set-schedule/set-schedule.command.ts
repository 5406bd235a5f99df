import { Actor, ScheduleDeleted, ScheduleSet } from '@crawlhub/contracts';

/** Creates or replaces a periodic job (`set`), or removes it (`delete`). */
export class SetScheduleCommand {
  constructor(readonly change: { set: ScheduleSet } | { delete: ScheduleDeleted }, readonly actor: Actor) {}
}
