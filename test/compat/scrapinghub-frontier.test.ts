import { describePythonCheck, PROJECT } from './run-python-check';

/**
 * The official Python client (`scrapinghub`, installed by test/compat/python-env.sh)
 * against the crawl frontier: test/compat/scrapinghub-frontier.py does the talking.
 */
describePythonCheck({
  title: 'official Python client (scrapinghub) against the crawl frontier',
  test: 'adds, reads, counts and deletes through project.frontiers and project.frontier',
  script: 'scrapinghub-frontier.py',
  projects: [PROJECT],
  args: (platform, key) => [platform.storageUrl, key, String(PROJECT)],
});
