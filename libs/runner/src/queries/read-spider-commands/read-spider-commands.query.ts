/** A project's registered spider commands, by name. */
export class ReadSpiderCommandsQuery {
  constructor(readonly project: number) {}
}
