import { Controller, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, formParams, RequestPrincipal } from '@crawlhub/http';
import { projectId, sendDash } from '../../http/jobs-request';
import { OutcomeOf } from '../shared/jobs-requests';
import { TagJobsCommand } from './tag-jobs.command';

/** POST /api/jobs/update.json (form): adds (`add_tag`) and removes (`remove_tag`) tags of jobs (`job`, repeatable) or of every job of a `spider`. */
@Controller()
export class TagJobsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  @Post('jobs/update.json')
  async update(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    const tags = { keys: params.getAll('job'), spider: params.get('spider'), add: params.getAll('add_tag'), remove: params.getAll('remove_tag') };
    const outcome = await this.commands.execute<TagJobsCommand, OutcomeOf<'tags'>>(new TagJobsCommand(project, tags, principal.id, actorOf(principal)));
    return sendDash(reply, { count: outcome.count, status: 'ok' });
  }
}
