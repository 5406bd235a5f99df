import { Controller, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, ApiError, formParams, RequestPrincipal } from '@crawlhub/http';
import { projectId, sendDash } from '../../http/jobs-request';
import { OutcomeOf } from '../shared/jobs-requests';
import { UpdateJobsCommand } from './update-jobs.command';

/** POST /api/jobs/delete.json (form, `job` repeatable): finished jobs move to `deleted` (their data stays readable, as on the original). */
@Controller()
export class DeleteJobsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  @Post('jobs/delete.json')
  async delete(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    const keys = params.getAll('job');
    if (keys.length === 0) throw new ApiError(400, 'job is required');
    const deletes = keys.map((key) => ({ key, state: 'deleted' }));
    const outcome = await this.commands.execute<UpdateJobsCommand, OutcomeOf<'update'>>(new UpdateJobsCommand(project, deletes, principal.id, actorOf(principal)));
    if (outcome.errors.length) throw new ApiError(400, outcome.errors.join('; '));
    return sendDash(reply, { count: outcome.lines.length, status: 'ok' });
  }
}
