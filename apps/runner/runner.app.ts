import { DynamicModule, INestApplicationContext, LoggerService, LogLevel, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Core, CoreModule } from '@crawlhub/platform';
import { Runner, RunnerModule, RunnerOptions } from '@crawlhub/runner';

@Module({})
export class RunnerAppModule {
  static with(core: Core, options: RunnerOptions): DynamicModule {
    return { module: RunnerAppModule, imports: [CoreModule.with(core), RunnerModule.with(options)] };
  }
}

/**
 * The runner role: finishes the jobs a previous run of this runner left behind, then
 * polls for pending jobs of registered spiders. Closing the context stops it (running
 * jobs get SIGTERM, then SIGKILL, and finish as `shutdown`).
 */
export async function startRunner(
  core: Core,
  logger: LoggerService | LogLevel[] | false,
  options: RunnerOptions = {},
): Promise<{ context: INestApplicationContext; runner: Runner }> {
  const context = await NestFactory.createApplicationContext(RunnerAppModule.with(core, options), { logger });
  const runner = context.get(Runner);
  await runner.start();
  return { context, runner };
}
