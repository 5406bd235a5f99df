import { JobKey } from '@crawlhub/contracts';

export const JOB_PLATFORM_METADATA = Symbol('JOB_PLATFORM_METADATA');

/**
 * The metadata the platform keeps about a job (state, times, priority, tags...), owned
 * by the jobs context, which provides this port. GET jobs/<key> shows it first, then the
 * fields clients wrote.
 */
export interface JobPlatformMetadata {
  /** The platform's fields and when each last changed (ms), or null for an unknown job. */
  get(job: JobKey): Promise<{ fields: Record<string, unknown>; times: Record<string, number> } | null>;
}
