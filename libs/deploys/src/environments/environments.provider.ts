import { Provider } from '@nestjs/common';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { BLOB_STORE, BlobStore } from '../ports/blob-store';
import { PythonEnvironments } from './python-environments';

/** This machine's environments, configured by DEPLOY_* (one instance per process: builds of one environment are shared). */
export const environmentsProvider: Provider = {
  provide: PythonEnvironments,
  inject: [CONFIG, BLOB_STORE],
  useFactory: (config: CrawlhubConfig, blobs: BlobStore) =>
    new PythonEnvironments(
      {
        root: config.deploys.envDir,
        pipCacheDir: config.deploys.pipCacheDir,
        python: config.deploys.python,
        buildTimeoutMs: config.deploys.buildTimeoutMs,
        maxIdleMs: config.deploys.envMaxIdleMs,
        maxBytes: config.deploys.envMaxBytes,
        baseEnv: config.runner.passEnv,
      },
      blobs,
    ),
};
