/** One comment by its id, whatever its project (PUT and DELETE /comments/<id>). */
export class FindCommentQuery {
  constructor(readonly id: number) {}
}
