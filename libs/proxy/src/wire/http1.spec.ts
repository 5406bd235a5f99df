import { ChunkedDecoder, headEnd, HttpSyntaxError, MAX_HEADER_BYTES, parseRequestHead, parseResponseHead } from './http1';

const request = (text: string) => {
  const buf = Buffer.from(text, 'latin1');
  const end = headEnd(buf);
  if (end < 0) throw new Error('incomplete head');
  return parseRequestHead(buf, end);
};
const refusal = (text: string) => {
  try {
    request(text);
  } catch (e) {
    if (e instanceof HttpSyntaxError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'accepted';
};

describe('parseRequestHead (strict)', () => {
  it('reads an absolute-form request: method, target, headers with case kept, framing, keep-alive, the key', () => {
    const head = request('POST http://site.test/a?b=1 HTTP/1.1\r\nHost: site.test\r\nContent-Length: 3\r\nProxy-Authorization: Basic eDo=\r\nX-Proxy-UA:  mobile \r\n\r\nabc');
    expect(head).toMatchObject({ method: 'POST', target: 'http://site.test/a?b=1', minor: 1, contentLength: 3, chunked: false, keepAlive: true, proxyAuthorization: 'Basic eDo=', upgrade: false });
    expect(head.rawHeaders).toEqual(['Host', 'site.test', 'Content-Length', '3', 'Proxy-Authorization', 'Basic eDo=', 'X-Proxy-UA', 'mobile']);
    expect(request('GET http://a.test/ HTTP/1.0\r\n\r\n').keepAlive).toBe(false);
    expect(request('GET http://a.test/ HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n').keepAlive).toBe(true);
    expect(request('GET http://a.test/ HTTP/1.1\r\nConnection: close\r\n\r\n').keepAlive).toBe(false);
    expect(request('GET http://a.test/ HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n').chunked).toBe(true);
    expect(request('GET http://a.test/ HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n').upgrade).toBe(true);
  });

  it.each([
    ['obs-fold (a continuation line)', 'GET http://a.test/ HTTP/1.1\r\nX-A: 1\r\n  2\r\n\r\n'],
    ['two Content-Length headers (even equal)', 'POST http://a.test/ HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n'],
    ['Content-Length as a list', 'POST http://a.test/ HTTP/1.1\r\nContent-Length: 3, 3\r\n\r\n'],
    ['a signed Content-Length', 'POST http://a.test/ HTTP/1.1\r\nContent-Length: +3\r\n\r\n'],
    ['Content-Length and Transfer-Encoding', 'POST http://a.test/ HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n'],
    ['a Transfer-Encoding other than chunked', 'POST http://a.test/ HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n'],
    ['an obfuscated Transfer-Encoding', 'POST http://a.test/ HTTP/1.1\r\nTransfer-Encoding: xchunked\r\n\r\n'],
    ['two Transfer-Encoding headers', 'POST http://a.test/ HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n'],
    ['Transfer-Encoding in HTTP/1.0', 'POST http://a.test/ HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n'],
    ['a space before the colon', 'POST http://a.test/ HTTP/1.1\r\nContent-Length : 3\r\n\r\n'],
    ['a bare LF ending a header line', 'GET http://a.test/ HTTP/1.1\r\nX-A: 1\nContent-Length: 3\r\n\r\n'],
    ['a bare CR inside a value', 'GET http://a.test/ HTTP/1.1\r\nX-A: 1\rContent-Length: 3\r\n\r\n'],
    ['a NUL in a value', 'GET http://a.test/ HTTP/1.1\r\nX-A: a\x00b\r\n\r\n'],
    ['two Host headers', 'GET http://a.test/ HTTP/1.1\r\nHost: a.test\r\nHost: b.test\r\n\r\n'],
    ['HTTP/2 in the request line', 'GET http://a.test/ HTTP/2.0\r\n\r\n'],
    ['a space in the target', 'GET http://a.test/a b HTTP/1.1\r\n\r\n'],
    ['two spaces in the request line', 'GET  http://a.test/ HTTP/1.1\r\n\r\n'],
    ['a header without a name', 'GET http://a.test/ HTTP/1.1\r\n: x\r\n\r\n'],
  ])('refuses %s (400 bad_request)', (_why, text) => {
    expect(refusal(text)).toMatch(/^bad_request: /);
  });

  it('refuses a head past 100 KiB (431), complete or not', () => {
    const big = `GET http://a.test/ HTTP/1.1\r\nX-Big: ${'a'.repeat(MAX_HEADER_BYTES)}\r\n`;
    expect(() => headEnd(Buffer.from(big))).toThrow(HttpSyntaxError);
    expect(() => headEnd(Buffer.from(`${big}\r\n`))).toThrow(/at most/);
    expect(headEnd(Buffer.from('GET http://a.test/ HTTP/1.1\r\nX-A: 1\r\n'))).toBe(-1);
  });
});

describe('ChunkedDecoder (strict)', () => {
  const decode = (parts: string[]) => {
    const d = new ChunkedDecoder();
    const out: string[] = [];
    let rest = '';
    for (const p of parts) {
      const buf = Buffer.from(p, 'latin1');
      const used = d.push(buf, (data) => out.push(data.toString('latin1')));
      rest += buf.subarray(used).toString('latin1');
    }
    return { body: out.join(''), done: d.done, rest };
  };

  it('decodes chunks split anywhere, with extensions and trailers, and stops at the body end', () => {
    const whole = '3;x=y\r\nabc\r\nA\r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\nGET next';
    expect(decode([whole])).toEqual({ body: 'abc0123456789', done: true, rest: 'GET next' });
    expect(decode(whole.split(''))).toEqual({ body: 'abc0123456789', done: true, rest: 'GET next' });
    expect(decode(['3\r\nab'])).toEqual({ body: 'ab', done: false, rest: '' });
  });

  it.each([
    ['a size that is not hex', 'x\r\nabc\r\n0\r\n\r\n'],
    ['a negative size', '-3\r\nabc\r\n0\r\n\r\n'],
    ['a 0x prefix', '0x3\r\nabc\r\n0\r\n\r\n'],
    ['a space before the extension', '3 ;x\r\nabc\r\n0\r\n\r\n'],
    ['an oversized size (past 2^52)', 'fffffffffffffff\r\n'],
    ['data longer than its size', '3\r\nabcd\r\n0\r\n\r\n'],
    ['a bare LF after the size', '3\nabc\r\n0\r\n\r\n'],
    ['a bare LF after the data', '3\r\nabc\n0\r\n\r\n'],
    ['an endless size line', `3${' '.repeat(5000)}`],
  ])('refuses %s', (_why, text) => {
    expect(() => decode([text])).toThrow(HttpSyntaxError);
  });
});

describe('parseResponseHead (framing of websites answers)', () => {
  const response = (text: string) => {
    const buf = Buffer.from(text, 'latin1');
    return parseResponseHead(buf, headEnd(buf));
  };

  it('reads status, reason, Set-Cookie and the framing; Transfer-Encoding wins over Content-Length', () => {
    expect(response('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n')).toMatchObject({ status: 200, reason: 'OK', contentLength: 5, chunked: false, close: false, setCookie: ['a=1', 'b=2'] });
    expect(response('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n')).toMatchObject({ contentLength: null, chunked: true, rawHeaders: ['Transfer-Encoding', 'chunked'] });
    expect(response('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n')).toMatchObject({ chunked: false, close: true });
    expect(response('HTTP/1.0 200 OK\r\n\r\n')).toMatchObject({ close: true });
    expect(response('HTTP/1.1 204\r\n\r\n')).toMatchObject({ status: 204, reason: '' });
  });

  it('refuses two different Content-Length values (no framing to trust)', () => {
    expect(() => response('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n')).toThrow(HttpSyntaxError);
  });
});
