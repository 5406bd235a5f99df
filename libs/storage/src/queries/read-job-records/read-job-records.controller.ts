import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { flag, many, queryOf, RequestPrincipal, sendRecords, single, StorageHttpError } from '@crawlhub/http';
import { parseId } from '../../domain/job-key';
import { idOf, kindOf } from '../../http/storage-request';
import { RecordPosition } from '../../ports/job-records.view';
import { RecordTexts } from './read-job-records.handler';
import { ReadJobRecordsQuery } from './read-job-records.query';

const META = ['_key', '_ts'];

@Controller()
export class ReadJobRecordsController {
  constructor(private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  @Get(':kind/:project')
  project(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.read(p, req, reply);
  }
  @Get(':kind/:project/:spider')
  spider(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.read(p, req, reply);
  }
  @Get(':kind/:project/:spider/:job')
  job(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.read(p, req, reply);
  }
  /** The fourth segment is a record position, or a field name (values of that field). */
  @Get(':kind/:project/:spider/:job/:record')
  record(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.read(p, req, reply);
  }
  @Get(':kind/:project/:spider/:job/:record/:field')
  field(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.read(p, req, reply);
  }

  private async read(p: Record<string, string>, req: FastifyRequest, reply: FastifyReply) {
    const kind = kindOf(p.kind);
    const project = idOf(p.project, 'project');
    const spider = p.spider === undefined ? undefined : idOf(p.spider, 'spider');
    const job = p.job === undefined ? undefined : idOf(p.job, 'job');
    await this.principals.authorize(req, project, job === undefined ? undefined : `${project}/${spider}/${job}`);
    const q = queryOf(req);
    let position: number | undefined;
    let field = p.field;
    if (p.record !== undefined) {
      const n = parseId(p.record);
      if (n === null) {
        if (p.field !== undefined) throw StorageHttpError.notFound();
        field = p.record;
      } else position = n;
    }
    const meta = many(q, 'meta');
    for (const m of meta) if (!META.includes(m)) throw StorageHttpError.badRequest(`Invalid meta field: ${JSON.stringify(m)} (known: ${META.join(', ')})`);
    const count = single(q, 'count');
    if (count !== undefined && !/^\d{1,9}$/.test(count)) throw StorageHttpError.badRequest(`Invalid count: ${JSON.stringify(count)}`);
    const positions = many(q, 'index').map((i) => {
      const n = parseId(i);
      if (n === null) throw StorageHttpError.badRequest(`Invalid index: ${JSON.stringify(i)}`);
      return n;
    });
    const page = {
      from: keyParam(single(q, 'start'), 'start', project),
      after: keyParam(single(q, 'startafter'), 'startafter', project),
      count: count === undefined ? undefined : Number(count),
      positions: positions.length ? positions : undefined,
    };
    const query = new ReadJobRecordsQuery(kind, project, spider, job, position, field, page, meta, flag(q, 'nodata'), many(q, 'filter'));
    const texts = await this.queries.execute<ReadJobRecordsQuery, RecordTexts>(query);
    if (position !== undefined) {
      // A single record (or one of its fields) that does not exist is a 404, not an empty 200.
      const first = await firstOf(texts);
      if (first.empty) throw StorageHttpError.notFound();
      return sendRecords(req, reply, first.rest);
    }
    return sendRecords(req, reply, texts);
  }
}

/** `start` / `startafter` take a full key `<project>/<spider>/<job>/<n>` (missing parts count as 0). */
function keyParam(value: string | undefined, name: string, project: number): RecordPosition | undefined {
  if (value === undefined) return undefined;
  const parts = value.split('/');
  if (parts.length < 2 || parts.length > 4 || parts.some((x) => parseId(x) === null) || Number(parts[0]) !== project) {
    throw StorageHttpError.badRequest(`Invalid ${name}: ${JSON.stringify(value)} (expected a key like ${project}/1/2/3)`);
  }
  const [, spider, job = '0', pos = '0'] = parts;
  return { spider: Number(spider), job: Number(job), pos: Number(pos) };
}

/** Reads the first page ahead, to tell "nothing" (404) from a record before answering. */
async function firstOf(texts: RecordTexts): Promise<{ empty: boolean; rest: RecordTexts }> {
  const it = texts[Symbol.asyncIterator]();
  const head = await it.next();
  async function* rest() {
    if (!head.done) yield head.value;
    for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
  }
  return { empty: head.done === true || head.value.length === 0, rest: rest() };
}

