import { request as httpRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection, never the forwarded message. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) kept[name] = value;
  return kept;
}

/**
 * Forwards a request of the console's origin to a public API of the platform (the
 * storage API under /storage/, the usage stats under /stats/), so the browser talks to
 * one origin. It is the same public API, answering with its own credentials check (the
 * key, or the console session cookie, which it accepts as the key), its own errors and
 * its own formats: no back door. Both bodies are piped with back-pressure, so a download
 * of a million items or a live event stream never sits in this process's memory, and a
 * client that goes away ends the upstream request (an event stream stops at once).
 */
export function forwardToPublicApi(req: FastifyRequest, reply: FastifyReply, prefix: string, base: string, unreachable: (reply: FastifyReply, message: string) => void): void {
  const target = new URL(req.url.slice(prefix.length), base);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstream = send(target, { method: req.method, headers: { ...endToEnd(req.headers), host: target.host } });
  let answered = false;
  upstream.on('response', (res: IncomingMessage) => {
    answered = true;
    reply.hijack();
    reply.raw.writeHead(res.statusCode ?? 502, endToEnd(res.headers));
    // An event stream must reach the browser line by line: no buffering on the way.
    reply.raw.flushHeaders();
    // Readable.pipe, not stream.pipeline: pipeline puts seven 'close' listeners on a
    // ServerResponse (Node's MaxListenersExceededWarning on every forwarded answer). The
    // ends are tied by hand: a failed upstream answer drops the client's connection, and a
    // client that goes away destroys the upstream request (below), which ends `res`.
    res.once('error', () => reply.raw.destroy());
    res.pipe(reply.raw);
  });
  upstream.on('error', (e) => {
    if (!answered) unreachable(reply, `${target.origin} is unreachable (${(e as NodeJS.ErrnoException).code ?? e.message})`);
    else reply.raw.destroy();
  });
  reply.raw.on('close', () => upstream.destroy());
  pipeline(req.raw, upstream, () => undefined);
}
