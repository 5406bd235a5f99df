import { DynamicModule, INestApplicationContext, LoggerService, LogLevel, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Core, CoreModule } from '@crawlhub/platform';
import { ExitPool, ProxyModule, ProxyServer } from '@crawlhub/proxy';
import { ProxySessionService, ProxySessionServiceModule } from '@crawlhub/proxy-sessions';
import { Clock } from '@crawlhub/contracts';
import { ProxyUsageRecorderModule, UsageRecorder } from '@crawlhub/proxy-stats';

/** The proxy, accounting every request into the usage statistics (UsageRecorder, libs/proxy-stats), with the event-sourced sessions (libs/proxy-sessions). */
@Module({})
export class ProxyAppModule {
  static with(core: Core, options: { clock?: Clock } = {}): DynamicModule {
    return {
      module: ProxyAppModule,
      imports: [CoreModule.with(core), ProxyModule.forRoot({ imports: [ProxyUsageRecorderModule.register(options), ProxySessionServiceModule], usage: UsageRecorder, sessions: ProxySessionService })],
    };
  }
}

export interface StartedProxy {
  context: INestApplicationContext;
  server: ProxyServer;
  port: number;
  close(): Promise<void>;
}

/** The smart forwarding proxy (default :8010): HTTP, intercepted HTTPS, GET /ca.crt, legacy GET /fetch, /sessions. */
export async function startProxyApp(core: Core, logger: LoggerService | LogLevel[] | false, options: { clock?: Clock } = {}): Promise<StartedProxy> {
  const context = await NestFactory.createApplicationContext(ProxyAppModule.with(core, options), { logger });
  const server = context.get(ProxyServer);
  const port = await server.listen(core.config.host, core.config.ports.proxy);
  return {
    context,
    server,
    port,
    close: async () => {
      await server.close();
      context.get(ExitPool).close();
      await context.close();
    },
  };
}
