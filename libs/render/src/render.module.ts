import { DynamicModule, Module } from '@nestjs/common';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { RENDERER } from './ports/renderer.port';
import { RenderPool, renderPoolOptionsOf } from './adapters/puppeteer/render-pool';

/**
 * Provides RENDERER: a RenderPool started from the config (closed in the last phase of the application's shutdown, once the workers stopped rendering), its
 * browsers going through `proxyUrl` (crawlhub's proxy; null: direct). No browser starts
 * before the first render.
 */
@Module({})
export class RenderModule {
  static forRoot(proxyUrl: string | null): DynamicModule {
    return {
      module: RenderModule,
      providers: [{ provide: RENDERER, inject: [CONFIG], useFactory: (config: CrawlhubConfig) => RenderPool.start(renderPoolOptionsOf(config, proxyUrl)) }],
      exports: [RENDERER],
    };
  }
}
