import { Controller, Delete, Get, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, ApiError, parseJson, readText, RequestPrincipal } from '@crawlhub/http';
import { projectId, sendJobqJson } from '../../http/jobs-request';
import { GetSettingsQuery } from '../../queries/get-settings/get-settings.query';
import { ChangeSettingsCommand } from './change-settings.command';

/**
 * Project settings (compat-notes §8): GET the object (`{}` when empty), POST merges,
 * GET/POST/DELETE one key. Answers in the JobQ service's style.
 */
@Controller('projects/:project/settings')
export class ChangeSettingsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal, private readonly queries: QueryBus) {}

  @Get()
  async get(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p);
    await this.principals.authorize(req, project);
    return sendJobqJson(reply, await this.settings(project));
  }

  @Get(':key')
  async getKey(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p.project);
    await this.principals.authorize(req, project);
    return sendJobqJson(reply, (await this.settings(project))[p.key] ?? null);
  }

  @Post()
  async merge(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.change(p, req, reply, await jsonBody(req), null);
  }

  @Post(':key')
  async setKey(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.change(p.project, req, reply, { [p.key]: await jsonBody(req) }, null);
  }

  @Delete(':key')
  async deleteKey(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.change(p.project, req, reply, {}, p.key);
  }

  private settings(project: number): Promise<Record<string, unknown>> {
    return this.queries.execute(new GetSettingsQuery(project));
  }

  private async change(p: string, req: FastifyRequest, reply: FastifyReply, set: unknown, remove: string | null) {
    const project = projectId(p);
    const principal = await this.principals.authorize(req, project);
    await this.commands.execute(new ChangeSettingsCommand(project, set, remove, principal.id, actorOf(principal)));
    return reply.status(200).header('content-type', 'text/html; charset=utf-8').send('');
  }
}

async function jsonBody(req: FastifyRequest): Promise<unknown> {
  try {
    return parseJson(await readText(req, 1024 * 1024));
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError(400, `malformed JSON body (${(e as Error).message})`);
  }
}
