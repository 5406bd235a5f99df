import { DynamicModule, Global, Module } from '@nestjs/common';
import { CrawlhubConfig } from './config';

export const CONFIG = Symbol('CONFIG');

/** Makes the one config object injectable everywhere (`@Inject(CONFIG)`). */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: CrawlhubConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: CONFIG, useValue: config }], exports: [CONFIG] };
  }
}
