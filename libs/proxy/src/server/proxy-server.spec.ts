import type { Duplex } from 'node:stream';
import { basicUser, MAX_HEADER_BYTES, refuseUnparsable, withTunnelHeaders } from './proxy-server';

describe('withTunnelHeaders', () => {
  it('adds the CONNECT request\'s headers of ours that the inner request does not send', () => {
    const connect = ['Host', 'a.test:443', 'X-Proxy-UA', 'mobile', 'X-Crawlera-Debug', 'ua', 'Proxy-Authorization', 'Basic x'];
    expect(withTunnelHeaders(connect, ['Host', 'a.test', 'X-Crawlera-UA', 'pass'])).toEqual(['Host', 'a.test', 'X-Crawlera-UA', 'pass', 'X-Crawlera-Debug', 'ua']);
    expect(withTunnelHeaders(['Host', 'a.test:443'], ['Host', 'a.test'])).toEqual(['Host', 'a.test']);
  });
});

describe('basicUser', () => {
  it('reads the key of Basic credentials', () => {
    expect(basicUser(`Basic ${Buffer.from('abc:').toString('base64')}`)).toBe('abc');
    expect(basicUser(`basic ${Buffer.from('abc').toString('base64')}`)).toBe('abc');
    expect(basicUser(`Basic ${Buffer.from(':x').toString('base64')}`)).toBeNull();
    expect(basicUser('Bearer x')).toBeNull();
    expect(basicUser(undefined)).toBeNull();
  });
});

describe('refuseUnparsable (what the HTTP parser refuses)', () => {
  const socketOf = (writable = true) => {
    const socket: { writable: boolean; written: string; end: jest.Mock; destroy: jest.Mock } = { writable, written: '', end: jest.fn(), destroy: jest.fn() };
    socket.end.mockImplementation((data: string, cb: () => void) => {
      socket.written = data;
      cb();
    });
    return socket;
  };

  it('answers headers past MAX_HEADER_BYTES as our errors are: 431, X-Proxy-Error, a text message; then closes', () => {
    const socket = socketOf();
    refuseUnparsable(Object.assign(new Error('Parse Error: Header overflow'), { code: 'HPE_HEADER_OVERFLOW' }), socket as unknown as Duplex);
    const [head, body] = socket.written.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(head).toContain('X-Proxy-Error: headers_too_large\r\nX-Crawlera-Error: headers_too_large\r\nContent-Type: text/plain; charset=utf-8');
    expect(body).toBe(`Request Header Fields Too Large: at most ${MAX_HEADER_BYTES} bytes\n`);
    expect(socket.destroy).toHaveBeenCalled();
  });

  it('answers a request that is not HTTP with 400 bad_request', () => {
    const socket = socketOf();
    refuseUnparsable(Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD', reason: 'Invalid method encountered' }), socket as unknown as Duplex);
    expect(socket.written).toMatch(/^HTTP\/1\.1 400 Bad request\r\n[^]*X-Proxy-Error: bad_request\r\n[^]*\r\n\r\nBad request: not a valid HTTP\/1\.1 request \(Invalid method encountered\)\n$/);
  });

  it('only closes a connection it cannot answer on (reset, timed out, no longer writable)', () => {
    for (const [code, writable] of [['ECONNRESET', true], ['ERR_HTTP_REQUEST_TIMEOUT', true], ['HPE_HEADER_OVERFLOW', false]] as const) {
      const socket = socketOf(writable);
      refuseUnparsable(Object.assign(new Error(code), { code }), socket as unknown as Duplex);
      expect(socket.end).not.toHaveBeenCalled();
      expect(socket.destroy).toHaveBeenCalled();
    }
  });
});
