import { TargetPolicy } from '@crawlhub/net';
import { ProxyError } from './proxy-errors';
import { answerWithoutDns, TargetGuard } from './target-guard';

describe('answerWithoutDns', () => {
  it('answers special-use names itself', () => {
    expect(answerWithoutDns('a.invalid', {})).toBe('nxdomain');
    expect(answerWithoutDns('site.test', {})).toBe('nxdomain');
    expect(answerWithoutDns('site.test', { 'site.test': '127.0.0.7' })).toEqual({ address: '127.0.0.7' });
    expect(answerWithoutDns('localhost', {})).toEqual({ address: '127.0.0.1' });
    expect(answerWithoutDns('x.localhost', {})).toEqual({ address: '127.0.0.1' });
    expect(answerWithoutDns('example.com', {})).toBeNull();
  });
});

describe('TargetGuard', () => {
  /** A resolver that knows a few names (and counts its lookups: a name is resolved once). */
  const zone: Record<string, string[]> = {
    'public.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'rebind.example': ['93.184.216.34', '127.0.0.1'],
    'mapped.example': ['::ffff:127.0.0.1'],
    'internal.example': ['10.0.0.7'],
  };
  let lookups: string[] = [];
  const lookupAll = async (name: string) => {
    lookups.push(name);
    const answer = zone[name];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return answer;
  };
  const guard = (policy = { allowPrivate: false, allowed: [] as string[] }) =>
    new TargetGuard({ denyDomains: ['bad.example', '0x7f.0.0.9'], staticHosts: { 'site.test': '0x7f.1', 'far.test': '8.8.8.8' }, policy: new TargetPolicy(policy) }, lookupAll);
  const outcome = (p: Promise<unknown>) => p.then((v) => v, (e: Error & { code?: string }) => e.code);

  beforeEach(() => (lookups = []));

  it('names the setting that allows a refused private target, in the message fetch and extraction pass on', async () => {
    const refused = await guard().check('127.0.0.1').then(() => null, (e: Error) => e);
    expect(refused).toBeInstanceOf(ProxyError);
    expect((refused as ProxyError).message).toBe('The domain is forbidden for crawling: private and loopback targets are refused unless ALLOW_PRIVATE_TARGETS is set');
  });

  it.each([
    // [target as written, what the guard answers: the checked target, or the error code]
    ['[0:0:0:0:0:0:0:1]', 'domain_forbidden'],
    ['[0000::1]', 'domain_forbidden'],
    ['[::0001]', 'domain_forbidden'],
    ['[0:0:0:0:0:ffff:7f00:1]', 'domain_forbidden'],
    ['[0:0:0:0:0:ffff:127.0.0.1]', 'domain_forbidden'],
    ['[0:0:0:0:0:0:0:0]', 'domain_forbidden'],
    ['[::127.0.0.1]', 'domain_forbidden'],
    ['[64:ff9b::7f00:1]', 'domain_forbidden'],
    ['[fe80::1%eth0]', 'domain_forbidden'],
    ['127.1', 'domain_forbidden'],
    ['2130706433', 'domain_forbidden'],
    ['0177.0.0.1', 'domain_forbidden'],
    ['0x7f.0.0.1', 'domain_forbidden'],
    ['169.254.169.254', 'domain_forbidden'],
    ['localhost', 'domain_forbidden'],
    ['LOCALHOST.', 'domain_forbidden'],
    ['x.localhost', 'domain_forbidden'],
    ['site.test', 'domain_forbidden'],
    ['rebind.example', 'domain_forbidden'],
    ['mapped.example', 'domain_forbidden'],
    ['internal.example', 'domain_forbidden'],
    ['www.bad.example', 'domain_forbidden'],
    ['BAD.example.', 'domain_forbidden'],
    ['127.0.0.9', 'domain_forbidden'],
    ['nothing.invalid', 'nxdomain'],
    ['unknown.test', 'nxdomain'],
    ['unknown.example', 'nxdomain'],
    ['[::1', 'bad_header'],
    ['evil.example@127.0.0.1', 'bad_header'],
    ['', 'bad_header'],
    ['Public.Example.', { host: 'public.example', address: '93.184.216.34' }],
    ['far.test', { host: 'far.test', address: '8.8.8.8' }],
    ['0x08.0x08.0x08.0x08', { host: '8.8.8.8', address: '8.8.8.8' }],
    ['[2001:4860:4860:0:0:0:0:8888]', { host: '2001:4860:4860::8888', address: '2001:4860:4860::8888' }],
    ['[::ffff:8.8.8.8]', { host: '::ffff:808:808', address: '::ffff:808:808' }],
  ])('%s: %j', async (raw, expected) => {
    expect(await outcome(guard().check(raw))).toEqual(expected);
  });

  it('resolves a name once, checks every address, and connects to the first', async () => {
    expect(await guard().check('public.example')).toEqual({ host: 'public.example', address: '93.184.216.34' });
    expect(lookups).toEqual(['public.example']);
    // Literals and special-use names never reach the resolver.
    for (const raw of ['[::1]', '127.0.0.1', 'localhost', 'site.test', 'a.invalid']) await outcome(guard().check(raw));
    expect(lookups).toEqual(['public.example']);
  });

  it('lets private targets through when allowed, all of them or the listed ones in any spelling', async () => {
    const open = guard({ allowPrivate: true, allowed: [] });
    expect(await open.check('[0:0:0:0:0:0:0:1]')).toEqual({ host: '::1', address: '::1' });
    expect(await open.check('site.test')).toEqual({ host: 'site.test', address: '127.0.0.1' });
    // The deny-list holds even then.
    expect(await outcome(open.check('bad.example'))).toBe('domain_forbidden');
    const listed = guard({ allowPrivate: false, allowed: ['::1', '127.0.0.1'] });
    expect(await listed.check('[0000::1]')).toEqual({ host: '::1', address: '::1' });
    expect(await listed.check('127.1')).toEqual({ host: '127.0.0.1', address: '127.0.0.1' });
    expect(await outcome(listed.check('127.0.0.2'))).toBe('domain_forbidden');
    expect(await outcome(listed.check('[::]'))).toBe('domain_forbidden');
  });

  it('gives the canonical host of a CONNECT line without any lookup, 540 for what is no host', () => {
    const g = guard();
    expect(['Public.Example.', '[2001:4860:4860::0008]', '[0:0:0:0:0:0:0:1]', '0x7f.1'].map((raw) => g.canonical(raw))).toEqual(['public.example', '2001:4860:4860::8', '::1', '127.0.0.1']);
    expect(() => g.canonical('[1::2::3]')).toThrow('Bad header value');
    expect(lookups).toEqual([]);
  });
});
