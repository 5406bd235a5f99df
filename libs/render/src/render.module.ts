import { DynamicModule, Module } from '@nestjs/common';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { RENDERER } from './ports/renderer.port';
import { RenderPool, renderPoolOptionsOf } from './pool/render-pool';

/** Provides RENDERER: a RenderPool started from the config (closed with the module). */
@Module({})
export class RenderModule {
  static forRoot(): DynamicModule {
    return {
      module: RenderModule,
      providers: [{ provide: RENDERER, inject: [CONFIG], useFactory: (config: CrawlhubConfig) => RenderPool.start(renderPoolOptionsOf(config)) }],
      exports: [RENDERER],
    };
  }
}
