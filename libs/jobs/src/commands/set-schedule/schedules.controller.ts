import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock, CLOCK, EventStamps, Ids, IDS } from '@crawlhub/contracts';
import { actorOf, ApiError, formParams, parseBoolean, RequestPrincipal } from '@crawlhub/http';
import { nextFire, parseCron } from '../../domain/cron';
import { integer, projectId, sendDash } from '../../http/jobs-request';
import { Schedule } from '../../ports/schedules.view';
import { ListSchedulesQuery } from '../../queries/list-schedules/list-schedules.query';
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
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDS) private readonly ids: Ids,
  ) {}

  private get stamps(): EventStamps {
    return { clock: this.clock, ids: this.ids };
  }

  @Post('add.json')
  async add(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    const spiderArgs: Record<string, string> = {};
    for (const [k, v] of params) if (!CONTROL.has(k)) spiderArgs[k] = v;
    const schedule = {
      project,
      spider: params.get('spider'),
      cron: params.get('cron'),
      id: params.get('id') ?? undefined,
      spiderArgs,
      enabled: enabledOf(params.get('enabled')),
      // Form integers are text: the form's own refusal quotes it as it came.
      priority: integer(params, 'priority', 2, 0, 4),
      units: integer(params, 'units', 1, 1, 6),
      tags: params.getAll('add_tag'),
      by: principal.id,
    };
    const set = new SetScheduleCommand({ set: schedule }, actorOf(principal), this.stamps);
    await this.commands.execute(set);
    return sendDash(reply, { status: 'ok', id: set.id });
  }

  @Get('list.json')
  async list(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    await this.principals.authorize(req, project);
    const now = this.clock.now();
    const schedules = (await this.queries.execute<ListSchedulesQuery, Schedule[]>(new ListSchedulesQuery(project))).map((s): DashSchedule => ({
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
    await this.commands.execute(new SetScheduleCommand({ delete: { project, id } }, actorOf(principal), this.stamps));
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
