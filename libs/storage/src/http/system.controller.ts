import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

@Controller('system')
export class SystemController {
  /** The server clock in ms, the only endpoint open without a key. */
  @Get('ts')
  ts(@Res() reply: FastifyReply) {
    return reply.header('content-type', 'application/json').header('access-control-allow-origin', '*').send(String(Date.now()));
  }
}
