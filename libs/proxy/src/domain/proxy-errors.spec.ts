import { errorCodeOf, ProxyError } from './proxy-errors';

describe('errorCodeOf', () => {
  const err = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  it('maps the real causes', () => {
    expect(errorCodeOf(err('ENOTFOUND'))).toBe('nxdomain');
    expect(errorCodeOf(err('EHOSTUNREACH'))).toBe('ehostunreach');
    expect(errorCodeOf(err('ECONNREFUSED'))).toBe('econnrefused');
    expect(errorCodeOf(err('ECONNRESET', 'read ECONNRESET'))).toBe('econnreset');
    expect(errorCodeOf(err('ECONNRESET', 'socket hang up'))).toBe('socket_closed_remotely');
    expect(errorCodeOf(err('DEPTH_ZERO_SELF_SIGNED_CERT'))).toBe('tls_error');
    expect(errorCodeOf(new ProxyError('timeout'))).toBe('timeout');
    expect(errorCodeOf(new Error('?'))).toBe('unexpected');
  });
  it('carries status and message', () => {
    const e = new ProxyError('data_error');
    expect([e.status, e.message]).toEqual([541, 'Response size is too big']);
  });
});
