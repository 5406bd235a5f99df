/** The project's periodic jobs. */
export class ListSchedulesQuery {
  constructor(readonly project: number) {}
}

/** One periodic job of the project, or null. */
export class GetScheduleQuery {
  constructor(readonly project: number, readonly id: string) {}
}
