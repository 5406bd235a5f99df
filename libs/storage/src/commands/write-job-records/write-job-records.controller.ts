import { formatJobKey } from '@crawlhub/contracts';
import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, ApiError, decodedBody, MAX_POSITION, parsePosition, queryOf, RequestPrincipal, single } from '@crawlhub/http';
import { idOf, kindOf } from '../../http/storage-request';
import { WriteJobRecordsCommand } from './write-job-records.command';

const CONTENT_RANGE = /^items\s+(\d+)-(\d*)\/(\*|\d+)$/i;

@Controller()
export class WriteJobRecordsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  /** POST JSON lines (gzip allowed) to items, logs or requests of a job; `?start=N` or Content-Range sets the position. */
  @Post(':kind/:project/:spider/:job')
  async write(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const kind = kindOf(p.kind);
    const project = idOf(p.project, 'project');
    const job = { project, spider: idOf(p.spider, 'spider'), job: idOf(p.job, 'job') };
    const principal = await this.principals.authorize(req, project, formatJobKey(job));
    const start = startOf(single(queryOf(req), 'start'), req.headers['content-range']);
    const body = decodedBody(req);
    await this.commands.execute(new WriteJobRecordsCommand(kind, job, start, body, actorOf(principal)));
    return reply.status(200).header('content-type', 'text/plain; charset=UTF-8').header('access-control-allow-origin', '*').send('');
  }
}

/** The first position of a write: `?start=N`, else `Content-Range: items N-/*`, else null (after the last record). */
function startOf(start: string | undefined, range: string | undefined): number | null {
  if (start !== undefined) return positionOf(start, `Invalid start: ${JSON.stringify(start)}`);
  if (range !== undefined) {
    const m = CONTENT_RANGE.exec(range.trim());
    if (!m) throw ApiError.badRequest(`Invalid Content-Range: ${JSON.stringify(range)} (expected "items N-/*")`);
    return positionOf(m[1], `Invalid Content-Range: ${JSON.stringify(range)}`);
  }
  return null;
}

function positionOf(text: string, invalid: string): number {
  const n = parsePosition(text);
  if (n === null) throw ApiError.badRequest(`${invalid} (expected a record position, an integer from 0 to ${MAX_POSITION})`);
  return n;
}
