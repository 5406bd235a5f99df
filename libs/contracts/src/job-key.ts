/** A job is addressed by `<project>/<spider>/<job>`, three non-negative integers of at most 15 digits. */
export interface JobKey {
  project: number;
  spider: number;
  job: number;
}

const JOB_KEY = /^\d{1,15}\/\d{1,15}\/\d{1,15}$/;

/** Whether `key` is a job key `<project>/<spider>/<job>` as events and views store it. */
export function isJobKey(key: string): boolean {
  return JOB_KEY.test(key);
}

export function formatJobKey(k: JobKey): string {
  return `${k.project}/${k.spider}/${k.job}`;
}

/** Parses a stored `p/s/j` job key (already validated when the event was written). */
export function parseJobKey(key: string): JobKey {
  const [project, spider, job] = key.split('/').map(Number);
  return { project, spider, job };
}
