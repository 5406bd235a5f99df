import { answerWithoutDns, isPrivateAddress, normalHost, TargetGuard } from './target-guard';

describe('answerWithoutDns', () => {
  it('answers special-use names itself', () => {
    expect(answerWithoutDns('a.invalid', {})).toBe('nxdomain');
    expect(answerWithoutDns('site.test', {})).toBe('nxdomain');
    expect(answerWithoutDns('site.test', { 'site.test': '127.0.0.7' })).toEqual({ address: '127.0.0.7' });
    expect(answerWithoutDns('localhost', {})).toEqual({ address: '127.0.0.1' });
    expect(answerWithoutDns('x.localhost', {})).toEqual({ address: '127.0.0.1' });
    expect(answerWithoutDns('10.1.2.3', {})).toEqual({ address: '10.1.2.3' });
    expect(answerWithoutDns('example.com', {})).toBeNull();
    expect(normalHost('[::1]')).toBe('::1');
    expect(normalHost('Example.COM.')).toBe('example.com');
  });
});

describe('isPrivateAddress', () => {
  it.each(['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '100.64.0.1'])('%s is private', (a) => {
    expect(isPrivateAddress(a)).toBe(true);
  });
  it.each(['8.8.8.8', '172.32.0.1', '2001:db8::1', '93.184.216.34'])('%s is public', (a) => {
    expect(isPrivateAddress(a)).toBe(false);
  });
});

describe('TargetGuard', () => {
  it('refuses denied domains and private addresses unless allowed', () => {
    const g = new TargetGuard({ denyDomains: ['bad.example'], allowPrivateTargets: false });
    expect(() => g.checkName('www.bad.example')).toThrow('forbidden');
    expect(() => g.checkName('good.example')).not.toThrow();
    expect(() => g.checkAddress('127.0.0.1')).toThrow('forbidden');
    expect(() => new TargetGuard({ denyDomains: [], allowPrivateTargets: true }).checkAddress('127.0.0.1')).not.toThrow();
  });
});
