import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, ApiError, readText, RequestPrincipal } from '@crawlhub/http';
import { jsonRecords, projectId, sendJobqLines } from '../../http/jobs-request';
import { OutcomeOf } from '../shared/jobs-requests';
import { UpdateJobsCommand } from './update-jobs.command';

@Controller('jobq')
export class UpdateJobsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  /** JSON lines of `{"key": job or spider key, "state"?, ...fields}` → `{"prevstate", "key"}` per updated job. */
  @Post(':project/update')
  async update(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p);
    const principal = await this.principals.authorize(req, project);
    const updates = jsonRecords(await readText(req, 16 * 1024 * 1024)).map(({ key, state, ...fields }) => ({ key, state, fields }));
    const outcome = await this.commands.execute<UpdateJobsCommand, OutcomeOf<'update'>>(new UpdateJobsCommand(project, updates, principal.id, actorOf(principal)));
    if (outcome.errors.length) throw new ApiError(400, outcome.errors.join('; '));
    return sendJobqLines(reply, outcome.lines);
  }
}
