/** A spider of the project, by name or by id (null when the project has none such). */
export class GetSpiderQuery {
  constructor(readonly project: number, readonly spider: { name: string } | { id: number }) {}
}

/** The spiders of the project, in id order. */
export class ListSpidersQuery {
  constructor(readonly project: number) {}
}
