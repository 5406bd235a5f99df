import { isPrivateAddress, normalHost } from './addresses';

describe('normalHost', () => {
  it('lowercases, drops the trailing dot and the brackets of IPv6 literals', () => {
    expect(normalHost('[::1]')).toBe('::1');
    expect(normalHost('Example.COM.')).toBe('example.com');
  });
});

describe('isPrivateAddress', () => {
  it.each(['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:c0a8:1', '100.64.0.1'])('%s is private', (a) => {
    expect(isPrivateAddress(a)).toBe(true);
  });
  it.each(['8.8.8.8', '172.32.0.1', '2001:db8::1', '93.184.216.34', '::ffff:808:808'])('%s is public', (a) => {
    expect(isPrivateAddress(a)).toBe(false);
  });
});
