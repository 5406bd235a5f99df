/** Per job of a project: the number of items with unarchived comments. */
export class CommentStatsQuery {
  constructor(readonly project: number) {}
}
