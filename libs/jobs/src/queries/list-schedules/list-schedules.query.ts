/** The project's periodic jobs. */
export class ListSchedulesQuery {
  constructor(readonly project: number) {}
}
