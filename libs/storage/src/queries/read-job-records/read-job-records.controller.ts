import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, flag, many, MAX_POSITION, parseId, parsePosition, parseUnsignedInteger, queryOf, RequestPrincipal, sendRecords, single } from '@crawlhub/http';
import { idOf, kindOf } from '../../http/storage-request';
import { RecordPosition } from '../../ports/job-records.view';
import { RecordTexts } from './read-job-records.handler';
import { ReadJobRecordsQuery } from './read-job-records.query';

const META = ['_key', '_ts'];
const MAX_COUNT = 999_999_999;

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
      const n = parsePosition(p.record);
      if (n === null) {
        if (p.field !== undefined) throw ApiError.notFound();
        field = p.record;
      } else position = n;
    }
    const meta = many(q, 'meta');
    for (const m of meta) if (!META.includes(m)) throw ApiError.badRequest(`Invalid meta field: ${JSON.stringify(m)} (known: ${META.join(', ')})`);
    const count = single(q, 'count');
    const pageSize = count === undefined ? undefined : parseUnsignedInteger(count, MAX_COUNT);
    if (pageSize === null) throw ApiError.badRequest(`Invalid count: ${JSON.stringify(count)}`);
    const positions = many(q, 'index').map((i) => {
      const n = parsePosition(i);
      if (n === null) throw ApiError.badRequest(`Invalid index: ${JSON.stringify(i)} (a record position, an integer from 0 to ${MAX_POSITION})`);
      return n;
    });
    const page = {
      from: keyParam(single(q, 'start'), 'start', project),
      after: keyParam(single(q, 'startafter'), 'startafter', project),
      count: pageSize,
      positions: positions.length ? positions : undefined,
    };
    const query = new ReadJobRecordsQuery(kind, project, spider, job, position, field, page, meta, flag(q, 'nodata'), many(q, 'filter'));
    const texts = await this.queries.execute<ReadJobRecordsQuery, RecordTexts>(query);
    if (position !== undefined) {
      // A single record (or one of its fields) that does not exist is a 404, not an empty 200.
      const first = await firstOf(texts);
      if (first.empty) throw ApiError.notFound();
      return sendRecords(req, reply, first.rest);
    }
    return sendRecords(req, reply, texts);
  }
}

/** `start` / `startafter` take a full key `<project>/<spider>/<job>/<n>` (missing parts count as 0). */
function keyParam(value: string | undefined, name: string, project: number): RecordPosition | undefined {
  if (value === undefined) return undefined;
  const [p, spider, job = '0', pos = '0', ...rest] = value.split('/');
  const ids = [p, spider, job].map(parseId);
  const position = parsePosition(pos);
  if (spider === undefined || rest.length > 0 || ids.includes(null) || position === null || ids[0] !== project) {
    throw ApiError.badRequest(`Invalid ${name}: ${JSON.stringify(value)} (expected a key like ${project}/1/2/3, positions up to ${MAX_POSITION})`);
  }
  return { spider: ids[1]!, job: ids[2]!, pos: position };
}

/** Reads the first page ahead, to tell "nothing" (404) from a record before answering. */
async function firstOf(texts: RecordTexts): Promise<{ empty: boolean; rest: RecordTexts }> {
  const it = texts[Symbol.asyncIterator]();
  const head = await it.next();
  async function* rest() {
    if (!head.done) yield head.value;
    for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
  }
  return { empty: head.done === true || (Array.isArray(head.value) && head.value.length === 0), rest: rest() };
}

