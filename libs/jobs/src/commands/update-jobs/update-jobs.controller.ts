import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JobState, JobUpdate } from '@crawlhub/contracts';
import { actorOf, ApiError, readText, RequestPrincipal } from '@crawlhub/http';
import { JobsOutcome } from '../../domain/decide-jobs';
import { clientMetadata, jobKey, jsonRecords, projectId, sendJobqJson, sendJobqLines, states } from '../../http/jobs-request';
import { RequestJobsChangeCommand } from '../request-jobs-change/request-jobs-change.command';

const SPIDER_KEY = /^\d{1,15}\/\d{1,15}$/;

@Controller('jobq')
export class UpdateJobsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  /** JSON lines of `{"key": job or spider key, "state"?, ...fields}` → `{"prevstate", "key"}` per updated job. */
  @Post(':project/update')
  async update(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p);
    const principal = await this.principals.authorize(req, project);
    const updates: JobUpdate[] = jsonRecords(await readText(req, 16 * 1024 * 1024)).map(({ key, state, ...fields }) => {
      if (typeof key !== 'string' || !(SPIDER_KEY.test(key) ? Number(key.split('/')[0]) === project : jobKey(key, project))) {
        throw new ApiError(400, `Invalid key: ${JSON.stringify(key)}`);
      }
      return { key, state: state === undefined ? null : (states([String(state)])[0] as JobState), fields: clientMetadata(fields) };
    });
    const by = principal.id;
    const outcome = (await this.commands.execute(new RequestJobsChangeCommand(project, { op: 'update', updates, by }, actorOf(principal)))) as Extract<
      JobsOutcome,
      { op: 'update' }
    >;
    if (outcome.errors.length) throw new ApiError(400, outcome.errors.join('; '));
    return sendJobqLines(reply, outcome.lines);
  }

  /** Body: `[{"key": ...}, ...]` (or JSON lines). A pending job finishes at once; a running one gets a stop request. */
  @Post(':project/cancel')
  async cancelMany(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p);
    const records = jsonRecords(await readText(req, 16 * 1024 * 1024));
    const keys = records.map((r) => jobKey(String(r.key), project));
    return this.cancel(project, keys, req, reply);
  }

  @Post(':project/:spider/:job/cancel')
  async cancelOne(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p.project);
    return this.cancel(project, [jobKey(`${p.project}/${p.spider}/${p.job}`, project)], req, reply);
  }

  private async cancel(project: number, keys: string[], req: FastifyRequest, reply: FastifyReply) {
    const principal = await this.principals.authorize(req, project);
    const outcome = (await this.commands.execute(new RequestJobsChangeCommand(project, { op: 'cancel', keys, by: principal.id }, actorOf(principal)))) as Extract<
      JobsOutcome,
      { op: 'cancel' }
    >;
    return sendJobqJson(reply, { count: outcome.count });
  }
}
