import { formatJobKey } from '@crawlhub/contracts';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { flag, queryOf, RequestPrincipal } from '@crawlhub/http';
import { idOf, kindOf } from '../../http/storage-request';
import { JobRecordsStatsQuery } from './job-records-stats.query';
import type { JobRecordStats } from '@crawlhub/wire';

@Controller()
export class JobRecordsStatsController {
  constructor(private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  /** Always JSON (compat-notes §8), whatever format was asked. */
  @Get(':kind/:project/:spider/:job/stats')
  async stats(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const kind = kindOf(p.kind);
    const project = idOf(p.project, 'project');
    const job = { project, spider: idOf(p.spider, 'spider'), job: idOf(p.job, 'job') };
    await this.principals.authorize(req, project, formatJobKey(job));
    const body = await this.queries.execute<JobRecordsStatsQuery, JobRecordStats>(new JobRecordsStatsQuery(kind, job, flag(queryOf(req), 'all')));
    return reply.header('content-type', 'application/json; charset=UTF-8').header('access-control-allow-origin', '*').send(JSON.stringify(body));
  }
}
