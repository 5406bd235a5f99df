import { Controller, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasCapability } from '@crawlhub/access';
import { FetchCompleted } from '@crawlhub/contracts';
import { actorOf, readText, RequestPrincipal } from '@crawlhub/http';
import { parseForm, parseJson } from '../../domain/fetch-params';
import { fetchResponseOf } from '../../domain/fetch-response';
import { FetchApiError } from '../../api/fetch-api-error';
import { FetchPageCommand } from './fetch-page.command';

/** Largest request body (the parameters, with the body for the website). */
export const MAX_FETCH_REQUEST_BYTES = 4 * 1024 * 1024;

@Controller()
export class FetchPageController {
  constructor(
    private readonly principals: RequestPrincipal,
    private readonly commands: CommandBus,
  ) {}

  /**
   * POST /fetch/v2 (spec "Fetch (current, experimental)"): the key needs the `browser`
   * capability even without rendering (else 401). The request goes to the log for a
   * worker; the answer is 200 with the fetch response object whatever the website did.
   */
  @Post('fetch/v2')
  async fetch(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await this.principals.require(req);
    if (!hasCapability(principal, 'browser')) throw new FetchApiError(401, 'unauthorized', 'this key may not use the fetch API: it lacks browser execution (crawlhub keys grant <key-id> browser)');
    const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== '' && type !== 'application/json' && type !== 'application/x-www-form-urlencoded') {
      throw new FetchApiError(415, 'unsupported_media_type', 'send the parameters as application/x-www-form-urlencoded or application/json');
    }
    const text = await readText(req, MAX_FETCH_REQUEST_BYTES);
    const params = type === 'application/json' ? parseJson(text) : parseForm(text);
    const done = await this.commands.execute<FetchPageCommand, FetchCompleted>(new FetchPageCommand(principal.id, actorOf(principal), params));
    return reply.status(200).header('content-type', 'application/json').send(JSON.stringify(fetchResponseOf(done)));
  }
}
