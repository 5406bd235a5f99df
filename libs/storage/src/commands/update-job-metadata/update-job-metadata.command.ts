import { Actor, JobKey } from '@crawlhub/contracts';

/** POST jobs/<key> (merge), POST jobs/<key>/<field> (set one), DELETE jobs/<key>/<field>. */
export type MetadataChange = { merge: Record<string, unknown> } | { delete: string };

export class UpdateJobMetadataCommand {
  constructor(readonly job: JobKey, readonly change: MetadataChange, readonly actor: Actor) {}
}
