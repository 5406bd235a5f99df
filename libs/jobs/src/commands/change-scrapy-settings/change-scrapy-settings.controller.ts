import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, ApiError, formParams, RequestPrincipal } from '@crawlhub/http';
import { jsonObject, projectId, sendDash, spiderName } from '../../http/jobs-request';
import { GetScrapySettingsQuery } from '../../queries/get-settings/get-settings.query';
import { ChangeScrapySettingsCommand } from './change-scrapy-settings.command';

/**
 * Scrapy settings of a project and of its spiders (dash `settings/get.json`, `settings/set.json`):
 * what the original's web UI sets as project settings and spider settings. A job scheduled
 * afterwards gets them under its `job_settings`, its own settings winning (decide-jobs.ts, jobSettingsOf).
 */
@Controller('settings')
export class ChangeScrapySettingsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal, private readonly queries: QueryBus) {}

  @Get('get.json')
  async get(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    await this.principals.authorize(req, project);
    const spider = spiderOf(params);
    return this.answer(reply, project, spider === null ? null : spiderName(spider));
  }

  @Post('set.json')
  async set(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    const text = params.get('settings');
    const change = new ChangeScrapySettingsCommand(project, { spider: spiderOf(params), set: text === null ? undefined : jsonObject(text, 'settings') }, principal.id, actorOf(principal));
    await this.commands.execute(change);
    return this.answer(reply, project, change.change.spider);
  }

  private async answer(reply: FastifyReply, project: number, spider: string | null) {
    const settingsOf = (of: string | null) => this.queries.execute<GetScrapySettingsQuery, Record<string, unknown>>(new GetScrapySettingsQuery(project, of));
    const layers = spider === null ? {} : { spider, spider_settings: await settingsOf(spider) };
    return sendDash(reply, { status: 'ok', project, project_settings: await settingsOf(null), ...layers });
  }
}

/** The spider whose settings are meant, or null for the project's own. */
function spiderOf(params: URLSearchParams): string | null {
  return params.get('spider') || null;
}
