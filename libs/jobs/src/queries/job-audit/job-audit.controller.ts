import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EVENT_LOG, EventLog } from '@crawlhub/eventlog';
import { formParams, RequestPrincipal } from '@crawlhub/http';
import { jobKey, projectId, sendDash } from '../../http/jobs-request';
import { auditEntries } from './job-audit';

/**
 * A job's audit history (jobs/audit.json, our addition): what `crawlhub audit <job>`
 * prints, read from the event log by the same reader: each decision about the job with
 * the request behind it and who made it, and the job's own writes, oldest first.
 */
@Controller()
export class JobAuditController {
  constructor(private readonly principals: RequestPrincipal, @Inject(EVENT_LOG) private readonly log: EventLog) {}

  @Get('jobs/audit.json')
  async audit(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    const job = jobKey(params.get('job') ?? '', project);
    await this.principals.authorize(req, project, job);
    return sendDash(reply, { status: 'ok', job, entries: await auditEntries(this.log, { project, job }) });
  }
}
