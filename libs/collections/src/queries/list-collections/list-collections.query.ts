/** GET /collections/<p>/list: the project's collections that hold records. */
export class ListCollectionsQuery {
  constructor(readonly project: number) {}
}
