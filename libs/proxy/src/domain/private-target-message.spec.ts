import { ProxyError } from './proxy-errors';
import { TargetGuard } from './target-guard';

describe('a refused private or loopback target', () => {
  it('names the setting that allows it, in the message fetch and extraction pass on', () => {
    const guard = new TargetGuard({ denyDomains: [], allowPrivateTargets: false });
    let refused: unknown;
    try {
      guard.checkAddress('127.0.0.1');
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(ProxyError);
    expect((refused as ProxyError).code).toBe('domain_forbidden');
    expect((refused as ProxyError).message).toBe('The domain is forbidden for crawling: private and loopback targets are refused unless ALLOW_PRIVATE_TARGETS is set');
  });
});
