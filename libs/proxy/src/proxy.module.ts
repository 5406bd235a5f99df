import { DynamicModule, Module, Provider, Type } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates } from 'node:tls';
import { AccessModule } from '@crawlhub/access';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { TargetPolicy } from '@crawlhub/net';
import { TargetGuard } from './domain/target-guard';
import { Exit, exitLabel, TlsTrust } from './exits/exit';
import { ExitPool } from './exits/exit-pool';
import { PROXY_RESOLVER, ProxyResolver, SystemResolver } from './exits/resolver';
import { NoSessions, PROXY_SESSIONS, ProxySessions } from './ports/proxy-sessions.port';
import { NoUsage, PROXY_USAGE, ProxyUsage } from './ports/proxy-usage.port';
import { ProxyForwarder } from './server/proxy-forwarder';
import { ProxyServer } from './server/proxy-server';
import { ProxyCa } from './tls/proxy-ca';
import { Clock, CLOCK } from '@crawlhub/contracts';

/** How the origins' certificates are checked (PROXY_UPSTREAM_TLS_VERIFY, PROXY_UPSTREAM_CA_FILE). */
export function tlsTrustOf(config: CrawlhubConfig): TlsTrust {
  const p = config.proxy;
  if (!p.upstreamCaFile) return { rejectUnauthorized: p.upstreamTlsVerify };
  // Node's roots plus the extra CAs (a `ca` option alone would replace the roots), in one context.
  return { rejectUnauthorized: p.upstreamTlsVerify, secureContext: createSecureContext({ ca: [...rootCertificates, readFileSync(p.upstreamCaFile, 'utf8')] }) };
}

export function exitPoolOf(config: CrawlhubConfig): ExitPool {
  const trust = tlsTrustOf(config);
  const seen = new Map<string, number>();
  const exits = config.proxy.exits.map((c) => {
    const label = exitLabel(c);
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    return new Exit(n === 1 ? label : `${label}#${n}`, c, trust);
  });
  return new ExitPool(exits, { banCooldownMs: config.proxy.banCooldownMs, exitCooldownMs: config.proxy.exitCooldownMs, throttle: config.proxy.throttle });
}

export function targetGuardOf(config: CrawlhubConfig, resolver: ProxyResolver): TargetGuard {
  return new TargetGuard({ denyDomains: config.proxy.denyDomains, staticHosts: config.proxy.staticHosts, policy: TargetPolicy.of(config) }, (name) => resolver.lookup(name));
}

export interface ProxyModuleOptions {
  /** Where usage is accounted (an exported provider of `imports`; default: nowhere). */
  usage?: Type<ProxyUsage>;
  /** The sessions (an exported provider of `imports`; default: none, every session id is unknown). */
  sessions?: Type<ProxySessions>;
  /** The modules that provide `usage` and `sessions`. */
  imports?: DynamicModule['imports'];
}

/** The smart forwarding proxy (needs CoreModule: config and the views of the keys). */
@Module({})
export class ProxyModule {
  static forRoot(options: ProxyModuleOptions = {}): DynamicModule {
    const providers: Provider[] = [
      { provide: ExitPool, useFactory: exitPoolOf, inject: [CONFIG] },
      { provide: ProxyCa, useFactory: (c: CrawlhubConfig, clock: Clock) => new ProxyCa(c.proxy.caDir, clock), inject: [CONFIG, CLOCK] },
      { provide: PROXY_RESOLVER, useClass: SystemResolver },
      { provide: TargetGuard, useFactory: targetGuardOf, inject: [CONFIG, PROXY_RESOLVER] },
      options.sessions ? { provide: PROXY_SESSIONS, useExisting: options.sessions } : { provide: PROXY_SESSIONS, useClass: NoSessions },
      options.usage ? { provide: PROXY_USAGE, useExisting: options.usage } : { provide: PROXY_USAGE, useClass: NoUsage },
      ProxyForwarder,
      ProxyServer,
    ];
    return { module: ProxyModule, imports: [AccessModule, ...(options.imports ?? [])], providers, exports: [ProxyServer, ProxyForwarder, ExitPool, PROXY_USAGE] };
  }
}
