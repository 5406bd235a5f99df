import { Controller, Delete, Param, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, RequestPrincipal } from '@crawlhub/http';
import { projectId } from '../../http/jobs-request';
import { PurgeJobCommand } from './purge-job.command';

/**
 * `DELETE jobs/<p>/<s>/<j>` on the storage port: purges a deleted job (the official
 * client's `jobs.apidelete`, which its own test fixtures call after finishing and deleting
 * every job). 200 with an empty body, also for a job that does not exist; 400 for a job
 * that is not deleted yet.
 */
@Controller('jobs')
export class PurgeJobController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  @Delete(':project/:spider/:job')
  async purge(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p.project);
    const principal = await this.principals.authorize(req, project);
    await this.commands.execute(new PurgeJobCommand(project, `${p.project}/${p.spider}/${p.job}`, principal.id, actorOf(principal)));
    return reply.status(200).header('content-type', 'text/html; charset=utf-8').send('');
  }
}
