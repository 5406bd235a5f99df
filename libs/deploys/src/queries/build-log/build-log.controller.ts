import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEPLOY_LOG, DEPLOYS_TOPIC, DeployLog } from '@crawlhub/contracts';
import { EVENT_LOG, EventLog, partitionForKey } from '@crawlhub/eventlog';
import { ApiError, formParams, parseUnsignedInteger, RequestPrincipal } from '@crawlhub/http';
import { projectOf, sendDash } from '../../http/deploys-request';
import { DEPLOYS_VIEW, DeploysView } from '../../ports/deploys.view';

const PAGE = 1000;

/**
 * The whole build log of one deploy, past or building (deploys/log.json, our addition):
 * the `deploy.log` lines its builder appended to the `deploys` topic, in order. The view
 * keeps only a failure's tail; the log keeps every line, in the project's partition.
 */
@Controller()
export class BuildLogController {
  constructor(private readonly principals: RequestPrincipal, @Inject(DEPLOYS_VIEW) private readonly deploys: DeploysView, @Inject(EVENT_LOG) private readonly log: EventLog) {}

  @Get('deploys/log.json')
  async buildLog(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectOf(params.get('project'));
    await this.principals.authorize(req, project);
    const deployId = parseUnsignedInteger(params.get('deploy_id'));
    if (deployId === null) throw new ApiError(400, `Invalid deploy_id: ${JSON.stringify(params.get('deploy_id') ?? '')}`);
    const deploy = (await this.deploys.list(project)).find((d) => d.deployId === deployId);
    if (!deploy) throw new ApiError(404, `No deploy ${deployId} in project ${project}`);
    const lines: string[] = [];
    await this.log.ensureTopics([DEPLOYS_TOPIC]);
    // A project's deploy events are keyed by the project: one partition holds them all.
    const partition = partitionForKey(String(project), this.log.partitionCount(DEPLOYS_TOPIC));
    for (let from = 0; ; ) {
      const page = await this.log.read(DEPLOYS_TOPIC, partition, from, PAGE);
      if (page.length === 0) break;
      for (const e of page) {
        const data = e.event.data as DeployLog;
        if (e.event.type === DEPLOY_LOG && data.request === deploy.request) lines.push(...data.lines);
      }
      from = page[page.length - 1].offset + 1;
    }
    return sendDash(reply, { status: 'ok', deploy_id: deploy.deployId, version: deploy.version, state: deploy.state, lines });
  }
}
