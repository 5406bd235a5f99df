import { globalAgent } from 'node:http';
import { Core } from '@crawlhub/platform';
import { startProxyApp, StartedProxy } from '../../apps/proxy/proxy.app';
import { startTestPlatform, TestPlatform } from './platform';
import { ProxyOrigin, startProxyOrigin, startUpstreamProxy, UpstreamProxy } from './proxy-origin';

/** The proxy's outgoing addresses in the proxy suites: loopback aliases the origin tells apart. */
export const EXITS = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];

export interface ProxyCoreFixture {
  platform: TestPlatform;
  origin: ProxyOrigin;
  upstream: UpstreamProxy;
  proxy: StartedProxy;
  /** A key of project 1. */
  key: string;
  port: number;
  /** Starts another proxy on the same platform with some settings changed; closed after the suite. */
  proxyWith(change: (c: Core['config']) => Core['config']): Promise<number>;
}

/**
 * The setting the proxy suites (proxy-core, proxy-https, proxy-throttling) share: a test platform
 * whose proxy has three exits, short timeouts, ban rules, a deny-list and throttling off, an origin
 * (HTTP and HTTPS, its own CA) and an upstream proxy. Registers the suite's hooks; the returned
 * object is filled in by its beforeAll.
 */
export function useProxyCoreFixture(): ProxyCoreFixture {
  const fixture = {} as ProxyCoreFixture;
  const started: StartedProxy[] = [];

  beforeAll(async () => {
    fixture.origin = await startProxyOrigin();
    fixture.upstream = await startUpstreamProxy();
    fixture.platform = await startTestPlatform({
      PROXY_PORT: '0',
      ALLOW_PRIVATE_TARGETS: 'true',
      PROXY_EXITS: EXITS.join(','),
      PROXY_UPSTREAM_CA_FILE: fixture.origin.caFile,
      PROXY_TIMEOUT_MIN_MS: '1500',
      PROXY_TIMEOUT_MAX_MS: '3000',
      PROXY_MAX_RESPONSE_BYTES: '200000',
      PROXY_BAN_RULES: JSON.stringify([{ status: [503] }, { body: ['captcha-marker'] }]),
      PROXY_BAN_COOLDOWN_MS: '300',
      PROXY_STATIC_HOSTS: 'site.test=127.0.0.1',
      PROXY_DENY_DOMAINS: 'denied.test',
      PROXY_MAX_CONNS_PER_KEY: '3',
      // Throttling has its own tests (with proxies of their own); here it would only slow every test down.
      PROXY_THROTTLE_SPACING_MS: '0',
    });
    fixture.key = await fixture.platform.createKey([1]);
    fixture.proxy = await startProxyApp(fixture.platform.core, ['error']);
    fixture.port = fixture.proxy.port;
    fixture.proxyWith = async (change) => {
      const core = { ...fixture.platform.core, config: change(fixture.platform.core.config) } as Core;
      const p = await startProxyApp(core, ['error']);
      started.push(p);
      return p.port;
    };
  }, 60_000);

  afterAll(async () => {
    for (const p of started) await p.close();
    await fixture.proxy?.close();
    await fixture.platform?.stop();
    await fixture.upstream?.close();
    await fixture.origin?.close();
    globalAgent.destroy();
  });

  beforeEach(() => fixture.origin.banned.clear());

  return fixture;
}
