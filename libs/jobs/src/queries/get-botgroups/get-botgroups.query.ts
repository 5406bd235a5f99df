/** The botgroups among `names` that exist, with their `max_running` (null: no limit). */
export class GetBotgroupsQuery {
  constructor(readonly names: string[]) {}
}
