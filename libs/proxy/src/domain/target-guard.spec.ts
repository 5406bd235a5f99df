import { answerWithoutDns, TargetGuard } from './target-guard';

describe('answerWithoutDns', () => {
  it('answers special-use names itself', () => {
    expect(answerWithoutDns('a.invalid', {})).toBe('nxdomain');
    expect(answerWithoutDns('site.test', {})).toBe('nxdomain');
    expect(answerWithoutDns('site.test', { 'site.test': '127.0.0.7' })).toEqual({ address: '127.0.0.7' });
    expect(answerWithoutDns('localhost', {})).toEqual({ address: '127.0.0.1' });
    expect(answerWithoutDns('x.localhost', {})).toEqual({ address: '127.0.0.1' });
    expect(answerWithoutDns('10.1.2.3', {})).toEqual({ address: '10.1.2.3' });
    expect(answerWithoutDns('example.com', {})).toBeNull();
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
