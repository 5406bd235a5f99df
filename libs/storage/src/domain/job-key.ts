/** A job is addressed by `<project>/<spider>/<job>`, three positive integers. */
export interface JobKey {
  project: number;
  spider: number;
  job: number;
}

export function formatJobKey(k: JobKey): string {
  return `${k.project}/${k.spider}/${k.job}`;
}

const ID = /^[0-9]{1,15}$/;

/** Parses an id path segment; null when it is not a non-negative integer. */
export function parseId(segment: string | undefined): number | null {
  if (segment === undefined || !ID.test(segment)) return null;
  return Number(segment);
}

/** Parses a stored `p/s/j` job key (already validated when the event was written). */
export function parseJobKey(key: string): JobKey {
  const [project, spider, job] = key.split('/').map(Number);
  return { project, spider, job };
}
