import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestPrincipal } from '@crawlhub/http';
import { JobCommentStats } from '../../domain/comment';
import { authorizeProject, idOf, principalOf, sendJson } from '../../http/comments-request';
import { CommentStatsQuery } from './comment-stats.query';

/**
 * GET /comments/<p>/stats: `{"<job key>": <items with unarchived comments>}`, only jobs
 * where that number is above zero, by spider then job ({} when there are none).
 */
@Controller('comments')
export class CommentStatsController {
  constructor(private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  @Get(':project/stats')
  async stats(@Param('project') segment: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await principalOf(this.principals, req);
    const project = idOf(segment, 'project id');
    authorizeProject(principal, project);
    const stats = await this.queries.execute<CommentStatsQuery, JobCommentStats[]>(new CommentStatsQuery(project));
    const body: Record<string, number> = {};
    for (const s of stats) body[`${project}/${s.spider}/${s.job}`] = s.items;
    return sendJson(reply, JSON.stringify(body));
  }
}
