import { Controller, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, ApiError, formParams, RequestPrincipal } from '@crawlhub/http';
import { projectId, sendDash } from '../../http/jobs-request';
import { CancelJobsCommand } from './cancel-jobs.command';

/** POST /api/jobs/stop.json (form, `job` repeatable): a pending job finishes as cancelled, a running one is asked to stop. */
@Controller()
export class StopJobsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  @Post('jobs/stop.json')
  async stop(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    const keys = params.getAll('job');
    if (keys.length === 0) throw new ApiError(400, 'job is required');
    await this.commands.execute(new CancelJobsCommand(project, keys, principal.id, actorOf(principal)));
    return sendDash(reply, { status: 'ok' });
  }
}
