import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canAccessProject } from '@crawlhub/access';
import { many, Query, queryOf, RequestPrincipal, sendRecords, ApiError } from '@crawlhub/http';
import { countOf, projectOf } from '../../http/activity-request';
import { ActivityTexts } from './read-activity.handler';
import { ReadActivityQuery } from './read-activity.query';

const META = ['_ts', '_project'];

@Controller('activity')
export class ReadActivityController {
  constructor(private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  /**
   * Messages of several projects, newest first: `p` (repeatable) names them, `pcount`
   * caps each project, `count` the whole answer. A key may name only projects it sees
   * (403 otherwise); without `p`, the admin key reads every project and any other key
   * the projects it is bound to.
   */
  @Get('projects')
  async projects(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await this.principals.require(req);
    const q = queryOf(req);
    const named = many(q, 'p').map(projectOf);
    for (const p of named) if (!canAccessProject(principal, p)) throw ApiError.forbidden();
    const projects = named.length ? named : principal.admin ? null : [...principal.projects].sort((a, b) => a - b);
    return this.answer(req, reply, q, projects, countOf(q, 'pcount'));
  }

  /** One project's messages, newest first; `count` caps them. */
  @Get(':project')
  async project(@Param('project') segment: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectOf(segment);
    await this.principals.authorize(req, project);
    return this.answer(req, reply, queryOf(req), [project], undefined);
  }

  private async answer(req: FastifyRequest, reply: FastifyReply, q: Query, projects: number[] | null, perProject: number | undefined) {
    const meta = many(q, 'meta');
    for (const m of meta) if (!META.includes(m)) throw ApiError.badRequest(`Invalid meta field: ${JSON.stringify(m)} (known: ${META.join(', ')})`);
    const query = new ReadActivityQuery(projects, perProject, countOf(q, 'count'), meta, many(q, 'filter'));
    const texts = await this.queries.execute<ReadActivityQuery, ActivityTexts>(query);
    return sendRecords(req, reply, texts);
  }
}
