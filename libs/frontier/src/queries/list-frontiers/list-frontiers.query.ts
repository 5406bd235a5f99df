/** GET /hcf/<p>/list (frontier null) or /hcf/<p>/<frontier>/list: names, sorted. */
export class ListFrontiersQuery {
  constructor(readonly project: number, readonly frontier: string | null) {}
}
