import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { attachmentDisposition } from './content-disposition';
import { createEncoder, encodeRecords, negotiateFormat, RecordOrPage } from './formats';
import { queryOf } from './query-params';

/** Gzip when the client asks for it. */
function wantsGzip(req: FastifyRequest): boolean {
  const ae = req.headers['accept-encoding'];
  return typeof ae === 'string' && /\bgzip\b/i.test(ae);
}

/**
 * Streams JSON texts in the negotiated result format, with back-pressure, gzip when
 * asked and `saveas`. Throws FormatError before anything is sent when the format is bad.
 */
export function sendRecords(req: FastifyRequest, reply: FastifyReply, texts: AsyncIterable<RecordOrPage>): FastifyReply {
  const query = queryOf(req);
  const { format, csv } = negotiateFormat(query, req.headers.accept);
  const encoder = createEncoder(format, csv);
  reply.header('content-type', encoder.contentType).header('access-control-allow-origin', '*');
  const saveas = query['saveas'];
  if (typeof saveas === 'string' && saveas !== '') reply.header('content-disposition', attachmentDisposition(saveas));
  const body = Readable.from(encodeRecords(texts, encoder));
  if (wantsGzip(req)) {
    reply.header('content-encoding', 'gzip');
    return reply.send(body.pipe(createGzip({ level: 1 })));
  }
  return reply.send(body);
}
