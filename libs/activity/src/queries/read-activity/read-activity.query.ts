/** GET activity/<project> (one project) and GET activity/projects (several). */
export class ReadActivityQuery {
  constructor(
    /** The projects to read; null: every project that has messages. */
    readonly projects: number[] | null,
    /** At most this many messages per project (`pcount`). */
    readonly perProject: number | undefined,
    /** At most this many messages in all (`count`). */
    readonly count: number | undefined,
    /** `_ts` and/or `_project`, appended last to each message (in that order). */
    readonly meta: string[],
    /** Raw `filter` parameters (see record-filter.ts in @crawlhub/storage). */
    readonly filters: string[] = [],
  ) {}
}
