import { Controller, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, formParams, RequestPrincipal } from '@crawlhub/http';
import { checkSpiderCommand } from '../../domain/spider-command';
import { actorOf, dashWrite, jsonParam, projectOf, sendDash } from '../../http/spiders-request';
import { UnregisterSpidersCommand } from '../unregister-spiders/unregister-spiders.command';
import { RegisterSpidersCommand } from './register-spiders.command';

/**
 * POST /api/spiders/register.json (form): project, spider, command (JSON array: argv,
 * no shell), cwd (absolute, optional), env (JSON object, optional). A registered command
 * runs on the runners' machines, so only an admin key may register or remove one.
 */
@Controller('spiders')
export class RegisterSpidersController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  @Post('register.json')
  async register(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectOf(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    if (!principal.admin) throw new ApiError(403, 'Only an admin key can register spider commands');
    const spider = params.get('spider');
    if (!spider) throw new ApiError(400, 'spider is required');
    const command = jsonParam(params, 'command');
    if (command === undefined) throw new ApiError(400, 'command is required (a JSON array of strings)');
    await dashWrite(async () => {
      const spec = checkSpiderCommand({ spider, command, cwd: params.get('cwd'), env: jsonParam(params, 'env') });
      await this.commands.execute(new RegisterSpidersCommand(project, [spec], actorOf(principal)));
    });
    return sendDash(reply, { status: 'ok', project, spider });
  }

  @Post('unregister.json')
  async unregister(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectOf(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    if (!principal.admin) throw new ApiError(403, 'Only an admin key can remove spider commands');
    const spiders = params.getAll('spider').filter(Boolean);
    if (spiders.length === 0) throw new ApiError(400, 'spider is required');
    await dashWrite(() => this.commands.execute(new UnregisterSpidersCommand(project, spiders, actorOf(principal))));
    return sendDash(reply, { status: 'ok', project, spiders });
  }
}
