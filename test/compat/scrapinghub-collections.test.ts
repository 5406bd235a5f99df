import { describePythonCheck, PROJECT } from './run-python-check';

/**
 * The official Python client (`scrapinghub`) against the collections API:
 * test/compat/scrapinghub-collections.py does the talking.
 */
describePythonCheck({
  title: 'official Python client (scrapinghub) against the collections API',
  test: 'stores, cached and versioned stores, iter/count/delete/list, the batch writer and errors',
  script: 'scrapinghub-collections.py',
  projects: [PROJECT],
  env: { COLLECTION_SCAN_BATCH: '1000' },
  args: (platform, key) => [platform.storageUrl, key, String(PROJECT)],
});
