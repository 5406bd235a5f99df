import { Actor } from '@crawlhub/contracts';
import { JobKey } from '../../domain/job-key';

/** POST jobs/<key> (merge), POST jobs/<key>/<field> (set one), DELETE jobs/<key>/<field>. */
export type MetadataChange = { merge: Record<string, unknown> } | { delete: string };

export class UpdateJobMetadataCommand {
  constructor(readonly job: JobKey, readonly change: MetadataChange, readonly actor: Actor) {}
}

/** Fields only the platform sets (job state machine, identity, token); clients get a 400. */
export const PLATFORM_FIELDS = new Set([
  '_key', 'auth', 'state', 'project', 'spider', 'pending_time', 'running_time', 'finished_time', 'deleted_time',
  'scheduled_by', 'started_by', 'completed_by', 'deleted_by', 'cancelled_by',
]);
