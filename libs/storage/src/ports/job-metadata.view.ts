import { JobKey } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';

export const JOB_METADATA_VIEW = Symbol('JOB_METADATA_VIEW');

/** What clients wrote to a job's metadata, with when each field was last written or deleted. */
export interface ClientMetadata {
  /** Fields in the order they were first set. */
  fields: Record<string, unknown>;
  /** field -> time (ms) of its last write; a field here but not in `fields` was deleted then. */
  times: Record<string, number>;
}

/**
 * The metadata fields clients write to each job. The platform keeps its own fields (the
 * jobs context); a read shows, per field, whichever was written last (see
 * read-job-metadata.handler.ts), as if both wrote one document.
 */
export interface JobMetadataView {
  merge(at: LogPosition, job: JobKey, fields: Record<string, unknown>, time: number): Promise<void>;
  deleteField(at: LogPosition, job: JobKey, field: string, time: number): Promise<void>;
  get(job: JobKey): Promise<ClientMetadata | null>;
}

/** The pure update both adapters apply. */
export function mergeClientMetadata(doc: ClientMetadata | null, change: { merge: Record<string, unknown> } | { delete: string }, time: number): ClientMetadata {
  const next: ClientMetadata = { fields: { ...(doc?.fields ?? {}) }, times: { ...(doc?.times ?? {}) } };
  if ('merge' in change) {
    for (const [k, v] of Object.entries(change.merge)) {
      next.fields[k] = v;
      next.times[k] = time;
    }
  } else {
    delete next.fields[change.delete];
    next.times[change.delete] = time;
  }
  return next;
}
