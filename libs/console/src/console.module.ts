import { DynamicModule, Module } from '@nestjs/common';
import { HttpSupportModule } from '@crawlhub/http';
import { AccessModule } from '@crawlhub/access';
import { loadConsoleBuild } from './console-assets';
import { KeysController } from './keys/keys.controller';
import { WorkUsageController } from './usage/work-usage.controller';
import { CONSOLE_BUILD, CONSOLE_UPSTREAMS, ConsoleController, ConsoleUpstreams } from './console.controller';

/** The web console of the dash role (docs/console.md), and what it adds to the dash API: key management, fetch and extraction usage. */
@Module({})
export class ConsoleModule {
  static register(upstreams: ConsoleUpstreams): DynamicModule {
    return {
      module: ConsoleModule,
      imports: [AccessModule, HttpSupportModule],
      controllers: [ConsoleController, KeysController, WorkUsageController],
      providers: [{ provide: CONSOLE_BUILD, useFactory: () => loadConsoleBuild() }, { provide: CONSOLE_UPSTREAMS, useValue: upstreams }],
    };
  }
}
