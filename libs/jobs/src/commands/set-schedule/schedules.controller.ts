import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { actorOf, ApiError, formParams, parseBoolean, RequestPrincipal } from '@crawlhub/http';
import { CronError, nextFire, parseCron } from '../../domain/cron';
import { integer, projectId, sendDash, spiderName } from '../../http/jobs-request';
import { SCHEDULES_VIEW, SchedulesView } from '../../ports/schedules.view';
import { SetScheduleCommand } from './set-schedule.command';
import type { DashSchedule } from '@crawlhub/wire';

const CONTROL = new Set(['project', 'spider', 'cron', 'priority', 'units', 'add_tag', 'id', 'enabled', 'apikey']);

/**
 * Periodic jobs (our addition; the original offered them only in its web UI):
 * POST /api/schedules/add.json creates one (or replaces `id`), GET list.json lists them
 * with their next run, POST delete.json removes one.
 */
@Controller('schedules')
export class SchedulesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly principals: RequestPrincipal,
    @Inject(SCHEDULES_VIEW) private readonly view: SchedulesView,
  ) {}

  @Post('add.json')
  async add(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    if (!params.get('spider')) throw new ApiError(400, 'spider is required');
    const spider = spiderName(params.get('spider'));
    const cron = params.get('cron');
    if (!cron) throw new ApiError(400, 'cron is required (five fields, UTC: minute hour day month weekday)');
    try {
      nextFire(parseCron(cron), Date.now());
    } catch (e) {
      if (e instanceof CronError) throw new ApiError(400, e.message);
      throw e;
    }
    const id = params.get('id') ?? randomUUID().slice(0, 8);
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new ApiError(400, 'id must be 1 to 64 letters, digits, _ or -');
    const spiderArgs: Record<string, string> = {};
    for (const [k, v] of params) if (!CONTROL.has(k)) spiderArgs[k] = v;
    const enabled = enabledOf(params.get('enabled'));
    await this.commands.execute(
      new SetScheduleCommand(
        { set: { project, id, spider, cron, priority: integer(params, 'priority', 2, 0, 4), units: integer(params, 'units', 1, 1, 6), tags: params.getAll('add_tag'), spiderArgs, enabled, by: principal.id } },
        actorOf(principal),
      ),
    );
    return sendDash(reply, { status: 'ok', id });
  }

  @Get('list.json')
  async list(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    await this.principals.authorize(req, project);
    const now = Date.now();
    const schedules = (await this.view.list(project)).map((s): DashSchedule => ({
      id: s.id,
      spider: s.spider,
      cron: s.cron,
      priority: s.priority,
      units: s.units,
      tags: s.tags,
      spider_args: s.spiderArgs,
      enabled: s.enabled,
      next_run: s.enabled ? new Date(nextFire(parseCron(s.cron), now)).toISOString() : null,
    }));
    return sendDash(reply, { status: 'ok', schedules });
  }

  @Post('delete.json')
  async delete(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    const id = params.get('id');
    if (!id) throw new ApiError(400, 'id is required');
    if (!(await this.view.get(project, id))) throw new ApiError(404, `no schedule ${id} in project ${project}`);
    await this.commands.execute(new SetScheduleCommand({ delete: { project, id } }, actorOf(principal)));
    return sendDash(reply, { status: 'ok' });
  }
}

/** `enabled`: true when absent or empty, else a boolean word (parseBoolean); anything else is a 400. */
function enabledOf(text: string | null): boolean {
  if (text === null || text === '') return true;
  const enabled = parseBoolean(text);
  if (enabled === null) throw new ApiError(400, `Invalid enabled: ${JSON.stringify(text)} (true or false)`);
  return enabled;
}
