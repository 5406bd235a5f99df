import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, queryOf, RequestPrincipal, single } from '@crawlhub/http';
import { authorizedProject, checkName, sendWritten } from '../../http/collections-request';
import { RenameCollectionCommand } from './rename-collection.command';

/** POST /collections/<p>/rename?name=X&new_name=Y → 200 (empty text/plain); every type of X becomes Y. */
@Controller('collections')
export class RenameCollectionController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  @Post(':project/rename')
  async rename(@Param('project') segment: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { project, principal } = await authorizedProject(this.principals, req, segment);
    const q = queryOf(req);
    const name = checkName(single(q, 'name'));
    const newName = checkName(single(q, 'new_name'), 'new collection');
    await this.commands.execute(new RenameCollectionCommand(project, name, newName, actorOf(principal)));
    return sendWritten(reply);
  }
}
