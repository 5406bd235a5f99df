/** A job by its key (`<project>/<spider>/<job>`), as the views have it; null when unknown. */
export class GetJobQuery {
  constructor(readonly key: string) {}
}
