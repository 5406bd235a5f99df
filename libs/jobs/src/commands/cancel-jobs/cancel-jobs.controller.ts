import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, readText, RequestPrincipal } from '@crawlhub/http';
import { jsonRecords, projectId, sendJobqJson } from '../../http/jobs-request';
import { OutcomeOf } from '../shared/jobs-requests';
import { CancelJobsCommand } from './cancel-jobs.command';

/** JobQ cancels: a pending job finishes at once, a running one gets a stop request; answers `{"count"}`. */
@Controller('jobq')
export class CancelJobsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  /** Body: `[{"key": ...}, ...]` (or JSON lines). */
  @Post(':project/cancel')
  async cancelMany(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p);
    const keys = jsonRecords(await readText(req, 16 * 1024 * 1024)).map((r) => String(r.key));
    return this.cancel(project, keys, req, reply);
  }

  @Post(':project/:spider/:job/cancel')
  async cancelOne(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.cancel(projectId(p.project), [`${p.project}/${p.spider}/${p.job}`], req, reply);
  }

  private async cancel(project: number, keys: string[], req: FastifyRequest, reply: FastifyReply) {
    const principal = await this.principals.authorize(req, project);
    const outcome = await this.commands.execute<CancelJobsCommand, OutcomeOf<'cancel'>>(new CancelJobsCommand(project, keys, principal.id, actorOf(principal)));
    return sendJobqJson(reply, { count: outcome.count });
  }
}
