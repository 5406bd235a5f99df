import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, queryOf, RequestPrincipal, single } from '@crawlhub/http';
import { authorizedProject, checkName, sendJson } from '../../http/collections-request';
import { DeleteCollectionCommand } from './delete-collection.command';

/** POST /collections/<p>/delete?name=X → 202 `{"status":"success","deleted":"X"}` (compat §1.1); every type of X. */
@Controller('collections')
export class DeleteCollectionController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  @Post(':project/delete')
  async delete(@Param('project') segment: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { project, principal } = await authorizedProject(this.principals, req, segment);
    const name = checkName(single(queryOf(req), 'name'));
    await this.commands.execute(new DeleteCollectionCommand(project, name, actorOf(principal)));
    return sendJson(reply, 202, JSON.stringify({ status: 'success', deleted: name }));
  }
}
