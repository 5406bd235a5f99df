/** Projects that have jobs (or only `project`), with their number of jobs per state. */
export class JobStateCountsQuery {
  constructor(readonly project?: number) {}
}
