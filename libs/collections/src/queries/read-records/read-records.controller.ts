import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestPrincipal, sendRecords, ApiError } from '@crawlhub/http';
import { isValidKey, isVersioned, StoredCollectionRecord, withMeta } from '../../domain/collection-record';
import { authorizedCollection, metaOf, scanParamsOf, sendNotFound } from '../../http/collections-request';
import { GetRecordQuery, RecordVersionsQuery, ScanRecordsQuery } from './read-records.query';
import { RecordTexts } from './read-records.handler';

/** Reads of one collection: a scan, one record, its `value`, its versions. */
@Controller('collections')
export class ReadRecordsController {
  constructor(private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  /** Scan: key, prefix, prefixcount, startts, endts, start, startafter, count, filter, meta, nodata; every result format. */
  @Get(':project/:type/:name')
  async scan(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { ref } = await authorizedCollection(this.principals, req, p);
    const params = scanParamsOf(req);
    const texts = await this.queries.execute<ScanRecordsQuery, RecordTexts>(new ScanRecordsQuery({ ref, ...params }, metaOf(req)));
    return sendRecords(req, reply, texts);
  }

  /** One record, without `_key` unless `meta=_key` asks; 404 `Not Found` when missing or expired. */
  @Get(':project/:type/:name/:key')
  async record(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const r = await this.one(p, req);
    if (!r) return sendNotFound(reply);
    const text = withMeta(r, metaOf(req));
    return sendRecords(req, reply, (async function* () {
      yield [text];
    })());
  }

  /** The record's `value` field as bare text: a string unquoted, any other JSON value as its JSON text. */
  @Get(':project/:type/:name/:key/value')
  async value(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const r = await this.one(p, req);
    const value = r ? (JSON.parse(r.json) as Record<string, unknown>).value : undefined;
    if (value === undefined) return sendNotFound(reply);
    const body = typeof value === 'string' ? value : JSON.stringify(value);
    return reply.status(200).header('content-type', 'text/plain; charset=UTF-8').header('access-control-allow-origin', '*').send(body);
  }

  /** Our extension: the kept versions of a vs/vcs record, newest first, each with `_ts` appended (404 for s and cs). */
  @Get(':project/:type/:name/:key/versions')
  async versions(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { ref } = await authorizedCollection(this.principals, req, p);
    if (!isVersioned(ref.type)) return sendNotFound(reply);
    const key = keyOf(p.key);
    const meta = { ...metaOf(req), ts: true };
    const versions = await this.queries.execute<RecordVersionsQuery, StoredCollectionRecord[]>(new RecordVersionsQuery(ref, key));
    if (versions.length === 0) return sendNotFound(reply);
    return sendRecords(req, reply, (async function* () {
      yield versions.map((r) => withMeta(r, meta));
    })());
  }

  private async one(p: Record<string, string>, req: FastifyRequest): Promise<StoredCollectionRecord | null> {
    const { ref } = await authorizedCollection(this.principals, req, p);
    return this.queries.execute<GetRecordQuery, StoredCollectionRecord | null>(new GetRecordQuery(ref, keyOf(p.key)));
  }
}

function keyOf(segment: string): string {
  if (!isValidKey(segment)) throw ApiError.badRequest(`Invalid key: ${JSON.stringify(segment)}`);
  return segment;
}
