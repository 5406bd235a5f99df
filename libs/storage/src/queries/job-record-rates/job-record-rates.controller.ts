import { formatJobKey } from '@crawlhub/contracts';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseUnsignedInteger, queryOf, RequestPrincipal, single, ApiError } from '@crawlhub/http';
import { idOf, kindOf } from '../../http/storage-request';
import { JobRecordRatesQuery } from './job-record-rates.query';
import type { JobRecordRates } from '@crawlhub/wire';

/** Buckets from a second to a day: a chart's points, not a scan of every record's time. */
const MAX_BUCKET_SECONDS = 86_400;

/**
 * The job's records over time (our addition, docs/storage-api.md "Rates"): how many it
 * stored per `bucket` seconds (default 60) of their commit time, the figures behind the
 * console's rates chart; `level` (logs): only lines at that level or above (40: errors).
 */
@Controller()
export class JobRecordRatesController {
  constructor(private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  @Get(':kind/:project/:spider/:job/rates')
  async rates(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const kind = kindOf(p.kind);
    const project = idOf(p.project, 'project');
    const job = { project, spider: idOf(p.spider, 'spider'), job: idOf(p.job, 'job') };
    await this.principals.authorize(req, project, formatJobKey(job));
    const q = queryOf(req);
    const bucketText = single(q, 'bucket');
    const bucket = bucketText === undefined ? 60 : parseUnsignedInteger(bucketText, MAX_BUCKET_SECONDS);
    if (bucket === null || bucket === 0) throw ApiError.badRequest(`bucket takes whole seconds from 1 to ${MAX_BUCKET_SECONDS}, got ${JSON.stringify(bucketText)}`);
    const levelText = single(q, 'level');
    if (levelText !== undefined && kind !== 'logs') throw ApiError.badRequest('level applies to logs only');
    const level = levelText === undefined ? undefined : parseUnsignedInteger(levelText, 1000);
    if (level === null) throw ApiError.badRequest(`level takes a log level (an integer such as 40), got ${JSON.stringify(levelText)}`);
    const body = await this.queries.execute<JobRecordRatesQuery, JobRecordRates>(new JobRecordRatesQuery(kind, job, bucket * 1000, level));
    return reply.header('content-type', 'application/json; charset=UTF-8').header('cache-control', 'no-store').send(JSON.stringify(body));
  }
}
