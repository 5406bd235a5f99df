import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestPrincipal } from '@crawlhub/http';
import { commentObject, StoredComment, targetKey } from '../../domain/comment';
import { jobOf, principalOf, sendJson, targetOf } from '../../http/comments-request';
import { ReadCommentsQuery } from './read-comments.query';

/**
 * GET a job's comments: an object keyed `<item_no>` or `<item_no>/<field>`, each value
 * the array of that target's comments (archived ones included, with their date); keys in
 * item order, an item before its fields. GET a target's comments: the array alone.
 */
@Controller('comments')
export class ReadCommentsController {
  constructor(private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  @Get(':project/:spider/:job')
  async ofJob(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await principalOf(this.principals, req);
    const comments = await this.queries.execute<ReadCommentsQuery, StoredComment[]>(new ReadCommentsQuery({ job: jobOf(p, principal) }));
    const groups = new Map<string, unknown[]>();
    for (const c of comments) {
      const key = targetKey(c);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key)!.push(commentObject(c, principal.id));
    }
    // Written by hand: a JS object would put every integer-looking key before the others.
    const body = `{${[...groups].map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
    return sendJson(reply, body);
  }

  @Get(':project/:spider/:job/:item')
  ofItem(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.ofTarget(p, req, reply);
  }

  @Get(':project/:spider/:job/:item/:field')
  ofField(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.ofTarget(p, req, reply);
  }

  private async ofTarget(p: Record<string, string>, req: FastifyRequest, reply: FastifyReply) {
    const principal = await principalOf(this.principals, req);
    const comments = await this.queries.execute<ReadCommentsQuery, StoredComment[]>(new ReadCommentsQuery({ target: targetOf(p, principal) }));
    return sendJson(reply, JSON.stringify(comments.map((c) => commentObject(c, principal.id))));
  }
}
