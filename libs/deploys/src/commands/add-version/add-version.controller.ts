import { Readable } from 'node:stream';
import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canAccessProject } from '@crawlhub/access';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { DEPLOY_REQUESTED, DeployBlob, DeployRequested, DEPLOYS_TOPIC, Ids, IDS } from '@crawlhub/contracts';
import { ChangeSpiderCommand } from '@crawlhub/jobs';
import { ApiError, pythonJson, readBody, RequestPrincipal } from '@crawlhub/http';
import { EventWriter, ProjectionLagError } from '@crawlhub/views';
import { MAX_DEPLOY_REQUEST_BYTES, versionProblem } from '../../domain/deploy';
import { resolveStack, UnknownStackError } from '../../domain/stacks';
import { projectOf, requireDeploy } from '../../http/deploys-request';
import { BLOB_STORE, BlobStore } from '../../ports/blob-store';
import { DeployProgress } from './deploy-progress';

/** A file part of the multipart body. */
type Entry = ReturnType<FormData['get']>;
type Upload = Exclude<Entry, string | null>;

const TOO_LARGE = `Deploy request too large: the egg, the eggs and the requirements may take ${MAX_DEPLOY_REQUEST_BYTES / 1024 / 1024} MB in all`;

/**
 * POST /api/scrapyd/addversion.json, as `shub deploy` sends it (multipart form: fields
 * `project`, `version`, optional `stack`; files `egg`, optional `eggs` (repeatable) and
 * `requirements`). What can be checked here is answered at once in the dash error style
 * (401, 403, 400, 413). Then the files go to the blob store, `deploy.requested` to the
 * log, and the answer streams the build log a runner appends, line by line, ending with
 * the status line shub looks for (written as Python's json.dumps writes it, as the
 * original did): `{"status": "ok", "project", "version", "spiders"}`, or
 * `{"status": "error", "message"}` when the deploy failed (after its log: the traceback
 * of a project that does not import is in it).
 */
@Controller('scrapyd')
export class AddVersionController {
  constructor(
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    private readonly principals: RequestPrincipal,
    private readonly writer: EventWriter,
    @Inject(IDS) private readonly ids: Ids,
    private readonly progress: DeployProgress,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    private readonly commands: CommandBus,
  ) {}

  @Post('addversion.json')
  async addVersion(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await this.principals.require(req);
    if (Number(req.headers['content-length'] ?? 0) > MAX_DEPLOY_REQUEST_BYTES) throw new ApiError(413, TOO_LARGE);
    const type = String(req.headers['content-type'] ?? '');
    if (!/^multipart\/form-data\s*;/i.test(type)) throw new ApiError(400, 'addversion.json takes a multipart/form-data body (fields project, version, stack; files egg, eggs, requirements)');
    let form: FormData;
    try {
      const body = await readBody(req, MAX_DEPLOY_REQUEST_BYTES);
      form = await new Response(body, { headers: { 'content-type': type } }).formData();
    } catch (e) {
      if (e instanceof ApiError && e.status === 413) throw new ApiError(413, TOO_LARGE);
      throw new ApiError(400, `malformed multipart body (${(e as Error).message})`);
    }
    const field = (name: string) => {
      const v = form.get(name);
      return typeof v === 'string' ? v : null;
    };
    const project = projectOf(field('project'));
    if (!canAccessProject(principal, project)) throw new ApiError(403, 'Forbidden');
    requireDeploy(principal);
    const version = field('version');
    const problem = versionProblem(version);
    if (problem) throw new ApiError(400, problem);
    let stack: string;
    try {
      stack = resolveStack(field('stack'));
    } catch (e) {
      if (e instanceof UnknownStackError) throw new ApiError(400, e.message);
      throw e;
    }
    const isFile = (v: Entry): v is Upload => v !== null && typeof v !== 'string';
    const egg = form.get('egg');
    if (!isFile(egg)) throw new ApiError(400, 'egg is required (the project egg, as a file)');
    const files = (name: string) => form.getAll(name).filter(isFile);
    const requirementsFile = files('requirements')[0] ?? null;

    const store = async (file: Upload): Promise<DeployBlob> => ({ ...(await this.blobs.put(Buffer.from(await file.arrayBuffer()))), filename: file.name });
    const request = this.ids.uuid();
    const data: DeployRequested = {
      project,
      request,
      version: version!,
      stack,
      egg: await store(egg),
      eggs: await Promise.all(files('eggs').map(store)),
      requirements: requirementsFile ? await store(requirementsFile) : null,
    };
    const watch = this.progress.watch(request);
    try {
      await this.writer.append(DEPLOYS_TOPIC, [this.writer.createEvent({ type: DEPLOY_REQUESTED, key: String(project), data, actor: { kind: 'key', id: principal.id } })]);
    } catch (e) {
      watch.stop();
      throw e;
    }
    reply.status(200).header('content-type', 'text/plain; charset=utf-8');
    return reply.send(Readable.from(this.stream(data, watch, principal.id)));
  }

  private async *stream(d: DeployRequested, watch: ReturnType<DeployProgress['watch']>, by: string): AsyncGenerator<string> {
    const timer = setTimeout(() => watch.stop(), this.config.deploys.waitMs);
    try {
      yield `Deploying version ${d.version} of project ${d.project} (stack ${d.stack}): waiting for a runner to build it\n`;
      for await (const step of watch.steps) {
        if (step.type === 'log') {
          yield step.lines.map((l) => `${l}\n`).join('');
        } else if (step.type === 'failed') {
          yield `${pythonJson({ status: 'error', message: step.data.reason })}\n`;
          return;
        } else {
          // The next request (run.json) must see the version: wait for the deploys view.
          await this.writer.waitForViews([step.at]).catch((e) => {
            if (!(e instanceof ProjectionLagError)) throw e;
          });
          // Deployed spiders get their spider ids now, as the original lists them after a deploy.
          for (const name of step.data.spiders) {
            await this.commands.execute(new ChangeSpiderCommand(d.project, { create: name }, by, { kind: 'key', id: by }));
          }
          yield `${pythonJson({ status: 'ok', project: d.project, version: d.version, spiders: step.data.spiders.length })}\n`;
          return;
        }
      }
      yield `${pythonJson({ status: 'error', message: `No runner built the deploy within ${this.config.deploys.waitMs} ms (is a runner, APP_ROLE=runner, running?); it stays requested and is built when one comes` })}\n`;
    } finally {
      clearTimeout(timer);
      watch.stop();
    }
  }
}
