import { DynamicModule, Module } from '@nestjs/common';
import { HttpSupportModule } from '@crawlhub/http';
import { AccessModule } from '@crawlhub/access';
import { loadConsoleBuild } from './console-assets';
import { KeysController } from './keys/keys.controller';
import { CONSOLE_BUILD, CONSOLE_UPSTREAMS, ConsoleController, ConsoleUpstreams } from './console.controller';

/** The web console of the dash role (docs/console.md), and the key management it adds to the dash API. */
@Module({})
export class ConsoleModule {
  static register(upstreams: ConsoleUpstreams): DynamicModule {
    return {
      module: ConsoleModule,
      imports: [AccessModule, HttpSupportModule],
      controllers: [ConsoleController, KeysController],
      providers: [{ provide: CONSOLE_BUILD, useFactory: () => loadConsoleBuild() }, { provide: CONSOLE_UPSTREAMS, useValue: upstreams }],
    };
  }
}
