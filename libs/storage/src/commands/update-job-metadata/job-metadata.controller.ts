import { formatJobKey, JobKey } from '@crawlhub/contracts';
import { Controller, Delete, Get, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, parseJson, pythonJson, readText, RequestPrincipal, ApiError } from '@crawlhub/http';
import { idOf } from '../../http/storage-request';
import { ReadJobMetadataQuery } from '../../queries/read-job-metadata/read-job-metadata.query';
import { PLATFORM_FIELDS, platformFieldProblem } from '../../domain/job-metadata-fields';
import { UpdateJobMetadataCommand } from './update-job-metadata.command';

const MAX_METADATA_BYTES = 1024 * 1024;

/**
 * Job metadata (compat-notes §1.6): reads answer in the JobQ service's style (Python
 * JSON, no trailing newline); a missing field is 200 `null`; POST merges; null is stored.
 */
@Controller('jobs')
export class JobMetadataController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly principals: RequestPrincipal,
  ) {}

  @Get(':project')
  projectLevel() {
    throw ApiError.badRequest('Job metadata is read per job: GET jobs/<project>/<spider>/<job>');
  }

  @Get(':project/:spider/:job')
  async read(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const job = await this.authorize(p, req);
    const doc = await this.queries.execute<ReadJobMetadataQuery, Record<string, unknown> | null>(new ReadJobMetadataQuery(job));
    // A job nothing has written metadata for reads as an empty object, as the client expects.
    return reply.header('content-type', 'application/x-jsonlines').send(pythonJson(doc ?? {}));
  }

  @Get(':project/:spider/:job/:field')
  async readField(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const job = await this.authorize(p, req);
    const doc = await this.queries.execute<ReadJobMetadataQuery, Record<string, unknown> | null>(new ReadJobMetadataQuery(job));
    return reply.header('content-type', 'application/json').send(pythonJson(doc?.[p.field] ?? null));
  }

  @Post(':project/:spider/:job')
  async merge(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const job = await this.authorize(p, req);
    const value = await readJsonBody(req);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw ApiError.badRequest('Job metadata must be a JSON object');
    // The official client saves metadata by posting back the whole object it read, platform
    // fields included: a merge ignores them (only the platform sets them) and keeps the rest.
    const fields = Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([f]) => !PLATFORM_FIELDS.has(f)));
    if (Object.keys(fields).length) await this.commands.execute(new UpdateJobMetadataCommand(job, { merge: fields }, actorOf(await this.principal(req))));
    return done(reply);
  }

  @Post(':project/:spider/:job/:field')
  async setField(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const job = await this.authorize(p, req);
    refusePlatformField(p.field);
    const value = await readJsonBody(req);
    await this.commands.execute(new UpdateJobMetadataCommand(job, { merge: { [p.field]: value } }, actorOf(await this.principal(req))));
    return done(reply);
  }

  @Delete(':project/:spider/:job/:field')
  async deleteField(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const job = await this.authorize(p, req);
    refusePlatformField(p.field);
    await this.commands.execute(new UpdateJobMetadataCommand(job, { delete: p.field }, actorOf(await this.principal(req))));
    return done(reply);
  }

  private async authorize(p: Record<string, string>, req: FastifyRequest): Promise<JobKey> {
    const project = idOf(p.project, 'project');
    const job = { project, spider: idOf(p.spider, 'spider'), job: idOf(p.job, 'job') };
    await this.principals.authorize(req, project, formatJobKey(job));
    return job;
  }

  private async principal(req: FastifyRequest) {
    return (await this.principals.of(req))!;
  }
}

function refusePlatformField(field: string): void {
  const problem = platformFieldProblem([field]);
  if (problem) throw ApiError.badRequest(problem);
}

function done(reply: FastifyReply) {
  return reply.status(200).header('content-type', 'text/html; charset=utf-8').send('');
}

async function readJsonBody(req: FastifyRequest): Promise<unknown> {
  const text = await readText(req, MAX_METADATA_BYTES);
  try {
    return parseJson(text);
  } catch (e) {
    throw ApiError.badRequest(`Error parsing data: invalid JSON (${(e as Error).message})`);
  }
}
