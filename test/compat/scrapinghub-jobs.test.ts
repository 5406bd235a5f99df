import { describePythonCheck, PROJECT } from './run-python-check';

/**
 * The official Python client (`scrapinghub`, installed by test/compat/python-env.sh)
 * against job control (dash run.json, jobs/*), JobQ, job metadata, job tokens and
 * activity: test/compat/scrapinghub-jobs.py does the talking.
 */
describePythonCheck({
  title: 'official Python client (scrapinghub) against job control, JobQ and activity',
  test: 'runs, lists, tags, cancels and deletes jobs, drives JobQ, writes with a job token, reads activity',
  script: 'scrapinghub-jobs.py',
  // The script uses PROJECT and PROJECT + 1 (projects.list() / summary()).
  projects: [PROJECT, PROJECT + 1],
  args: (platform, key) => [platform.storageUrl, platform.dashUrl, key, String(PROJECT)],
});
