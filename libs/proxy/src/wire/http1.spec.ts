import { ChunkedDecoder, fastAbsoluteTarget, headEnd, HttpSyntaxError, MAX_HEADER_BYTES, parseRequestHead, parseResponseHead } from './http1';

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

describe('fastAbsoluteTarget: the split of a target without a URL object', () => {
  /** What the proxy made of a target with `new URL` (null: the URL parser refuses it). */
  const viaUrl = (raw: string) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return null;
    }
    const scheme = url.protocol === 'https:' ? 'https' : 'http';
    return { scheme, host: url.hostname, port: url.port ? Number(url.port) : scheme === 'https' ? 443 : 80, path: `${url.pathname}${url.search}` };
  };
  const printable = Array.from({ length: 0x7f - 0x21 }, (_, i) => String.fromCharCode(0x21 + i));
  const targets = [
    'http://127.0.0.1:8080/1k',
    'http://site.test/',
    'https://site.test:443/a/b?c=d&e=f',
    'http://site.test:80/x',
    'http://site.test:0080/x',
    'http://site.test:65535/x',
    'http://site.test:65536/x',
    'http://site.test:0/x',
    'http://a..b/',
    'http://-a.b/',
    'http://a_b.c/',
    'http://0x7f.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://1.2.3.256/',
    'http://01.2.3.4/',
    'http://xn--nxasmq6b.test/',
    'http://xn--zz.test/',
    'http://site.test/a/./b',
    'http://site.test/a/../b',
    'http://site.test/a/%2e%2E/b',
    'http://site.test/a/.well-known/x',
    'http://site.test/a?',
    'http://site.test/a?b=./..',
    'http://site.test',
    'http://SITE.test/',
    'HTTP://site.test/',
    'http://user@site.test/',
    'http://site.test:/x',
    'http://[::1]:8080/x',
    ...printable.map((c) => `http://site.test/x${c}y?q${c}z`),
    ...printable.map((c) => `http://si${c}te.test/`),
  ];
  it.each(targets)('%s: the same answer as new URL, or none', (raw) => {
    const fast = fastAbsoluteTarget(raw);
    if (fast !== null) expect(fast).toEqual(viaUrl(raw));
  });
  it('takes the common spellings (the bench and most crawls send these)', () => {
    expect(fastAbsoluteTarget('http://127.0.0.1:8080/1k')).toEqual({ scheme: 'http', host: '127.0.0.1', port: 8080, path: '/1k' });
    expect(fastAbsoluteTarget('http://shop.example/p/1?page=2&sort=price')).toEqual({ scheme: 'http', host: 'shop.example', port: 80, path: '/p/1?page=2&sort=price' });
  });
});
