import { Controller, Delete, Get, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, ApiError, readBody, RequestPrincipal } from '@crawlhub/http';
import { sendJobqJson } from '../../http/jobs-request';
import { Botgroups } from '../../queries/get-botgroups/get-botgroups.handler';
import { GetBotgroupsQuery } from '../../queries/get-botgroups/get-botgroups.query';
import { checked } from '../shared/command-input';
import { botgroupName, SetBotgroupCommand } from './set-botgroup.command';

/**
 * Botgroups on the JobQ service (as the official client's live tests call them):
 * `POST botgroups/<name>/max_running` with a JSON integer (or `null`, no limit),
 * `GET` it back, `DELETE botgroups/<name>`. A botgroup is shared by the projects that
 * name it in their `botgroups` setting, so only the admin key changes one.
 */
@Controller('botgroups/:name')
export class BotgroupsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal, private readonly queries: QueryBus) {}

  @Get('max_running')
  async get(@Param('name') name: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    await this.principals.require(req);
    const [found] = await this.queries.execute<GetBotgroupsQuery, Botgroups>(new GetBotgroupsQuery([checked(botgroupName, name)]));
    return sendJobqJson(reply, found?.maxRunning ?? null);
  }

  @Post('max_running')
  async set(@Param('name') name: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await this.admin(req);
    let value: unknown;
    try {
      value = JSON.parse((await readBody(req, 1024)).toString('utf8'));
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw new ApiError(400, 'max_running must be a JSON integer or null');
    }
    await this.commands.execute(new SetBotgroupCommand(name, value, false, actorOf(principal)));
    return reply.status(200).header('content-type', 'text/html; charset=utf-8').send('');
  }

  @Delete()
  async delete(@Param('name') name: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await this.admin(req);
    await this.commands.execute(new SetBotgroupCommand(name, null, true, actorOf(principal)));
    return reply.status(200).header('content-type', 'text/html; charset=utf-8').send('');
  }

  private async admin(req: FastifyRequest) {
    const principal = await this.principals.require(req);
    if (!principal.admin) throw new ApiError(403, 'Forbidden');
    return principal;
  }
}
