import { Logger } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Duplex } from 'node:stream';
import { IngestError } from './json-lines';
import { ApiError, ApiErrorFilter, dashErrorFilter, RETRY_AFTER_SECONDS, storageErrorFilter } from './api-error';

/** A reply that records what was sent. */
function fakeReply(url = '/items/1/1/1') {
  const sent: { status?: number; headers: Record<string, string>; body?: Buffer } = { headers: {} };
  const reply = {
    sent: false,
    request: { url },
    raw: { destroy: jest.fn() },
    status(s: number) {
      sent.status = s;
      return reply;
    },
    headers(h: Record<string, string>) {
      Object.assign(sent.headers, h);
      return reply;
    },
    send(body?: Buffer) {
      sent.body = body;
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, sent };
}

/** A socket that records what was written before it was closed. */
interface FakeSocket {
  writable: boolean;
  destroyed: boolean;
  written: string;
  end: jest.Mock;
  destroy: jest.Mock;
}

function fakeSocket(writable = true): FakeSocket {
  const socket: FakeSocket = { writable, destroyed: false, written: '', end: jest.fn(), destroy: jest.fn() };
  socket.end.mockImplementation((data: string, cb: () => void) => {
    socket.written = data;
    cb();
  });
  return socket;
}

const hostOf = (reply: FastifyReply) => ({ switchToHttp: () => ({ getResponse: () => reply }) }) as unknown as ArgumentsHost;
const fastifyError = (code: string, statusCode: number) => Object.assign(new Error(`'/x' fastify says`), { code, statusCode }) as FastifyError;

describe('ApiErrorFilter', () => {
  it('renders an error of a controller in the API style, with the CORS header', () => {
    const { reply, sent } = fakeReply();
    storageErrorFilter().catch(new IngestError(400, 'Error parsing data, line 2: not valid UTF-8'), hostOf(reply));
    expect(sent).toEqual({
      status: 400,
      headers: { 'content-type': 'text/plain; charset=UTF-8', 'access-control-allow-origin': '*' },
      body: Buffer.from('Error parsing data, line 2: not valid UTF-8\n'),
    });
  });

  it("renders Fastify's router errors (frameworkErrors) in the API style, not Fastify's JSON", () => {
    const storage = fakeReply();
    storageErrorFilter().frameworkError(fastifyError('FST_ERR_MAX_PARAM_LENGTH', 414), {} as FastifyRequest, storage.reply);
    expect(storage.sent.status).toBe(414);
    expect(storage.sent.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(storage.sent.body!.toString()).toBe('URI Too Long: a path segment is longer than 1000 characters\n');
    const dash = fakeReply('/api/jobs/%E6');
    dashErrorFilter().frameworkError(fastifyError('FST_ERR_BAD_URL', 400), {} as FastifyRequest, dash.reply);
    expect([dash.sent.status, JSON.parse(dash.sent.body!.toString())]).toEqual([400, { status: 'error', message: 'Bad Request: the path is not valid percent-encoding' }]);
  });

  it("answers what Node's HTTP parser refuses (clientError) on the socket, in the API style, and closes it", () => {
    const overflow = fakeSocket();
    dashErrorFilter().clientError(Object.assign(new Error('Parse Error: Header overflow'), { code: 'HPE_HEADER_OVERFLOW' }), overflow as unknown as Duplex);
    const [head, body] = overflow.written.split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual([
      'HTTP/1.1 431 Request Header Fields Too Large',
      'content-type: application/json; charset=utf-8',
      'access-control-allow-origin: *',
      `content-length: ${Buffer.byteLength(body)}`,
      'connection: close',
    ]);
    expect(JSON.parse(body)).toEqual({ status: 'error', message: expect.stringMatching(/^Request Header Fields Too Large: the request line and headers are limited to \d+ bytes$/) });
    expect(overflow.destroy).toHaveBeenCalled();

    const invalid = fakeSocket();
    storageErrorFilter().clientError(Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_URL', reason: 'Invalid char in url path' }), invalid as unknown as Duplex);
    expect(invalid.written).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(invalid.written.split('\r\n\r\n')[1]).toBe('Bad Request: not a valid HTTP/1.1 request (Invalid char in url path)\n');
  });

  it('writes nothing to a connection the client reset or that can no longer be written', () => {
    const reset = fakeSocket();
    storageErrorFilter().clientError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), reset as unknown as Duplex);
    expect(reset.end).not.toHaveBeenCalled();
    const closed = fakeSocket(false);
    storageErrorFilter().clientError(Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD' }), closed as unknown as Duplex);
    expect(closed.end).not.toHaveBeenCalled();
    expect(closed.destroy).toHaveBeenCalled();
  });

  it('answers an unexpected error 500 without its details, and logs it', () => {
    const log = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { reply, sent } = fakeReply();
    new ApiErrorFilter('test', (e) => ({ status: e.status, headers: {}, body: e.message })).catch(new Error('secret stack'), hostOf(reply));
    expect([sent.status, sent.body!.toString()]).toEqual([500, 'Internal Server Error']);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('secret stack'));
    log.mockRestore();
  });

  it('renders an ApiError of any status', () => {
    const { reply, sent } = fakeReply();
    dashErrorFilter().catch(new ApiError(403, 'Forbidden'), hostOf(reply));
    expect([sent.status, sent.body!.toString()]).toEqual([403, '{"status":"error","message":"Forbidden"}']);
  });

  it.each([
    ['storage', storageErrorFilter(), 'Service Unavailable: views lag; retry\n'],
    ['dash', dashErrorFilter(), '{"status":"error","message":"Service Unavailable: views lag; retry"}'],
  ])('answers "retry later" (ApiError.unavailable) 503 with Retry-After in the %s style', (_style, filter, body) => {
    const { reply, sent } = fakeReply();
    filter.catch(ApiError.unavailable('views lag; retry'), hostOf(reply));
    expect([sent.status, sent.headers['retry-after'], sent.body!.toString()]).toEqual([503, String(RETRY_AFTER_SECONDS), body]);
  });

  it('adds no Retry-After to other errors', () => {
    const { reply, sent } = fakeReply();
    storageErrorFilter().catch(new ApiError(500, 'Internal Server Error'), hostOf(reply));
    expect(sent.headers['retry-after']).toBeUndefined();
  });
});
