import { DynamicModule, INestApplicationContext, LoggerService, LogLevel, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AccessModule } from '@crawlhub/access';
import { Core, CoreModule } from '@crawlhub/platform';
import { StorageViewsModule } from '@crawlhub/storage';
import { JobsViewsModule } from '@crawlhub/jobs';
import { CommentsViewsModule } from '@crawlhub/comments';
import { ActivityViewsModule } from '@crawlhub/activity';
import { SpiderCommandsViewsModule } from '@crawlhub/runner';
import { DeploysViewsModule } from '@crawlhub/deploys';
import { CollectionsViewsModule } from '@crawlhub/collections';
import { FrontierViewsModule } from '@crawlhub/frontier';
import { ProxySessionsViewsModule } from '@crawlhub/proxy-sessions';
import { ProxyUsageViewsModule } from '@crawlhub/proxy-stats';
import { Projector } from '@crawlhub/views';

/** Every module that owns projections; the projector applies all of them. */
@Module({})
export class ProjectorAppModule {
  static with(core: Core): DynamicModule {
    return { module: ProjectorAppModule, imports: [CoreModule.with(core), AccessModule, StorageViewsModule, CommentsViewsModule, ActivityViewsModule, JobsViewsModule, SpiderCommandsViewsModule, DeploysViewsModule, FrontierViewsModule, CollectionsViewsModule, ProxyUsageViewsModule, ProxySessionsViewsModule], providers: [Projector], exports: [Projector] };
  }
}

export async function createProjector(core: Core, logger: LoggerService | LogLevel[] | false): Promise<{ context: INestApplicationContext; projector: Projector }> {
  const context = await NestFactory.createApplicationContext(ProjectorAppModule.with(core), { logger });
  return { context, projector: context.get(Projector) };
}

/** The projector role: catch up, then keep the views in step with the log. */
export async function startProjector(core: Core, logger: LoggerService | LogLevel[] | false): Promise<INestApplicationContext> {
  const { context, projector } = await createProjector(core, logger);
  await projector.start();
  return context;
}
