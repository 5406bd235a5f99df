import { describePythonCheck, PROJECT } from './run-python-check';

/**
 * The official Python client (`scrapinghub`, installed by test/compat/python-env.sh)
 * against the storage API: test/compat/scrapinghub-storage.py does the talking.
 */
describePythonCheck({
  title: 'official Python client (scrapinghub) against the storage API',
  test: 'writes and reads items, logs, requests, stats and metadata',
  script: 'scrapinghub-storage.py',
  projects: [PROJECT],
  args: (platform, key) => [platform.storageUrl, key, String(PROJECT)],
});
