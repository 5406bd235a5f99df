import { basicUser, withTunnelHeaders } from './proxy-server';

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
