import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Clock, CLOCK } from '@crawlhub/contracts';

@Controller('system')
export class SystemController {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  /** The server clock in ms, the only endpoint open without a key. */
  @Get('ts')
  ts(@Res() reply: FastifyReply) {
    return reply.header('content-type', 'application/json').header('access-control-allow-origin', '*').send(String(this.clock.now()));
  }
}
