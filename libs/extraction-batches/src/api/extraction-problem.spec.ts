import type { ArgumentsHost } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Duplex } from 'node:stream';
import { ApiError } from '@crawlhub/http';
import { extractionProblemFilter, PROBLEM_TYPE_BASE } from './extraction-problem';

function answerOf(error: unknown, url = '/v1/extract') {
  const sent: { status?: number; headers: Record<string, string>; body?: Buffer } = { headers: {} };
  const reply = {
    sent: false,
    request: { url },
    status: (s: number) => ((sent.status = s), reply),
    headers: (h: Record<string, string>) => (Object.assign(sent.headers, h), reply),
    send: (body?: Buffer) => ((sent.body = body), reply),
  };
  extractionProblemFilter().catch(error, { switchToHttp: () => ({ getResponse: () => reply as unknown as FastifyReply }) } as unknown as ArgumentsHost);
  return { status: sent.status, type: sent.headers['content-type'], problem: sent.body && JSON.parse(sent.body.toString()) };
}

describe('extractionProblemFilter', () => {
  it('gives errors raised outside the extraction code the type of their status', () => {
    expect(answerOf(new ApiError(404, 'Not Found'))).toEqual({ status: 405, type: 'application/problem+json', problem: { type: `${PROBLEM_TYPE_BASE}method-not-allowed.html`, title: 'Invalid HTTP method (only POST is supported)', status: 405 } });
    expect(answerOf(new ApiError(404, 'Not Found'), '/v2/nothing').problem).toMatchObject({ type: `${PROBLEM_TYPE_BASE}unknown-uri.html`, status: 404 });
  });

  it('makes any other client error (a gzip body that is not gzip, a bad encoding) a malformed-request titled with its message', () => {
    expect(answerOf(new ApiError(400, 'Error decoding gzip body: incorrect header check'))).toEqual({
      status: 400,
      type: 'application/problem+json',
      problem: { type: `${PROBLEM_TYPE_BASE}malformed-request.html`, title: 'Error decoding gzip body: incorrect header check', status: 400 },
    });
    expect(answerOf(new ApiError(415, 'Unsupported content-encoding: br')).problem).toMatchObject({ type: `${PROBLEM_TYPE_BASE}malformed-request.html`, status: 415 });
  });

  it('answers a request the HTTP parser refuses as a problem too, on the socket', () => {
    const socket = { writable: true, destroyed: false, written: '', end: (data: string, cb: () => void) => ((socket.written = data), cb()), destroy: () => undefined };
    extractionProblemFilter().clientError(Object.assign(new Error('Parse Error'), { code: 'HPE_HEADER_OVERFLOW' }), socket as unknown as Duplex);
    const [head, body] = socket.written.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(head).toContain('content-type: application/problem+json');
    expect(JSON.parse(body)).toMatchObject({ type: `${PROBLEM_TYPE_BASE}malformed-request.html`, status: 431 });
  });
});
