import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, ApiError, formParams, RequestPrincipal } from '@crawlhub/http';
import { jsonObject, projectId, sendDash, spiderName } from '../../http/jobs-request';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';
import { RequestJobsChangeCommand } from '../request-jobs-change/request-jobs-change.command';

/**
 * Scrapy settings of a project and of its spiders (dash `settings/get.json`, `settings/set.json`):
 * what the original's web UI sets as project settings and spider settings. A job scheduled
 * afterwards gets them under its `job_settings`, its own settings winning (decide-jobs.ts, jobSettingsOf).
 */
@Controller('settings')
export class ScrapySettingsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal, @Inject(JOBS_VIEW) private readonly view: JobsView) {}

  @Get('get.json')
  async get(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    await this.principals.authorize(req, project);
    return this.answer(reply, project, spiderOf(params));
  }

  @Post('set.json')
  async set(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    const spider = spiderOf(params);
    if (params.get('settings') === null) throw new ApiError(400, 'settings is required (a JSON object; a null value removes its setting)');
    const set = jsonObject(params.get('settings'), 'settings');
    if (Object.keys(set).some((name) => name.trim() === '')) throw new ApiError(400, 'settings: a setting name must not be empty');
    await this.commands.execute(new RequestJobsChangeCommand(project, { op: 'scrapy-settings', spider, set, by: principal.id }, actorOf(principal)));
    return this.answer(reply, project, spider);
  }

  private async answer(reply: FastifyReply, project: number, spider: string | null) {
    const layers = spider === null ? {} : { spider, spider_settings: await this.view.scrapySettings(project, spider) };
    return sendDash(reply, { status: 'ok', project, project_settings: await this.view.scrapySettings(project, null), ...layers });
  }
}

/** The spider whose settings are meant, or null for the project's own. */
function spiderOf(params: URLSearchParams): string | null {
  const spider = params.get('spider');
  return spider === null || spider === '' ? null : spiderName(spider);
}
