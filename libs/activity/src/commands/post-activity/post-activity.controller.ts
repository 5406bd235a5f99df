import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, decodedBody, RequestPrincipal } from '@crawlhub/http';
import { projectOf } from '../../http/activity-request';
import { PostActivityCommand } from './post-activity.command';

@Controller('activity')
export class PostActivityController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  /**
   * POST one JSON object or JSON lines of them (gzip allowed). Answers like item writes
   * (compat-notes §1.9): 200, empty `text/plain`, once the messages are stored and readable.
   */
  @Post(':project')
  async post(@Param('project') segment: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectOf(segment);
    const principal = await this.principals.authorize(req, project);
    const body = decodedBody(req);
    await this.commands.execute(new PostActivityCommand(project, body, actorOf(principal)));
    return reply.status(200).header('content-type', 'text/plain; charset=UTF-8').header('access-control-allow-origin', '*').send('');
  }
}
