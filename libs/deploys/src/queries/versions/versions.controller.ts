import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEPLOY_VERSION_DELETED, DEPLOYS_TOPIC, DeployVersionDeleted } from '@crawlhub/contracts';
import { actorOf, ApiError, formParams, RequestPrincipal } from '@crawlhub/http';
import { EventWriter, ProjectionLagError } from '@crawlhub/views';
import { DeployDoc } from '../../domain/deploy';
import { projectOf, requireDeploy, sendDash } from '../../http/deploys-request';
import { currentDeploy, DEPLOYS_VIEW, DeploysView } from '../../ports/deploys.view';
import type { DashDeploy } from '@crawlhub/wire';

/** `name-1.2-py3.11.egg` -> {name, version}, as the original lists dependency eggs. */
function eggEntry(filename: string, fallbackVersion: string): { name: string; version: string } {
  const base = filename.replace(/\.egg$/, '');
  const [name, version] = base.split('-');
  return { name: name || base, version: version ?? fallbackVersion };
}

/** Versions that can run jobs, oldest first: the last is the current one (scrapyd's order). */
function liveVersions(deploys: DeployDoc[]): string[] {
  const latest = new Map<string, number>();
  for (const d of deploys) if (d.state === 'ok' && !d.deleted) latest.set(d.version, d.deployId);
  return [...latest.entries()].sort((a, b) => a[1] - b[1]).map(([v]) => v);
}

/**
 * What shub and the clients read of deploys: the versions (scrapyd's listversions and
 * delversion), the eggs of the current version (eggs/list.json, what `shub copy-eggs`
 * reads), and every deploy with its state (deploys/list.json, our addition).
 */
@Controller()
export class VersionsController {
  constructor(private readonly principals: RequestPrincipal, private readonly writer: EventWriter, @Inject(DEPLOYS_VIEW) private readonly deploys: DeploysView) {}

  private async projectDeploys(req: FastifyRequest): Promise<{ project: number; deploys: DeployDoc[] }> {
    const params = await formParams(req);
    const project = projectOf(params.get('project'));
    await this.principals.authorize(req, project);
    return { project, deploys: await this.deploys.list(project) };
  }

  @Get('scrapyd/listversions.json')
  async listVersions(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { deploys } = await this.projectDeploys(req);
    return sendDash(reply, { status: 'ok', versions: liveVersions(deploys) });
  }

  @Get('eggs/list.json')
  async listEggs(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { deploys } = await this.projectDeploys(req);
    const current = currentDeploy(deploys);
    return sendDash(reply, { status: 'ok', eggs: current ? current.eggs.map((e) => eggEntry(e.filename, current.version)) : [] });
  }

  @Get('deploys/list.json')
  async listDeploys(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { deploys } = await this.projectDeploys(req);
    const current = currentDeploy(deploys);
    return sendDash(reply, {
      status: 'ok',
      deploys: [...deploys].reverse().map((d): DashDeploy => ({
        deploy_id: d.deployId,
        version: d.version,
        stack: d.stack,
        state: d.state,
        current: d === current,
        deleted: d.deleted,
        spiders: d.spiders,
        failure: d.failure,
        requested_time: d.requestedAt,
        built_time: d.builtAt,
        requested_by: d.requestedBy,
      })),
    });
  }

  @Post('scrapyd/delversion.json')
  async deleteVersion(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectOf(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    requireDeploy(principal);
    const version = params.get('version');
    if (!version) throw new ApiError(400, 'version is required');
    if (!liveVersions(await this.deploys.list(project)).includes(version)) throw new ApiError(400, `Unknown version ${JSON.stringify(version)} of project ${project}`);
    const data: DeployVersionDeleted = { project, version };
    try {
      await this.writer.appendAndWait(DEPLOYS_TOPIC, [this.writer.createEvent({ type: DEPLOY_VERSION_DELETED, key: String(project), data, actor: actorOf(principal) })]);
    } catch (e) {
      if (e instanceof ProjectionLagError) throw ApiError.unavailable(e.message);
      throw e;
    }
    return sendDash(reply, { status: 'ok' });
  }
}
