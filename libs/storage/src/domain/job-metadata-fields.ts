/**
 * Fields of a job's metadata that only the platform sets: its identity, its token, and
 * its state machine (state, `<state>_time`, `<state>_by`). The decider writes them; no
 * client write may (compat-notes §1.6: the official client never sends `_key`, `auth`
 * or `state` in a metadata write).
 */
export const PLATFORM_FIELDS: ReadonlySet<string> = new Set([
  '_key', 'auth', 'state', 'project', 'spider', 'pending_time', 'running_time', 'finished_time', 'deleted_time',
  'scheduled_by', 'started_by', 'completed_by', 'deleted_by', 'cancelled_by',
]);

/**
 * The one rule for every path that takes job metadata from a client (`POST jobs/<key>/<field>`,
 * `DELETE jobs/<key>/<field>`, run.json `meta`, the extra fields of jobq push, update and
 * startjob): the refusal naming the first platform field among `fields`, or null. Each
 * path takes its own control parameters (`state` of run.json and jobq) out before asking.
 */
export function platformFieldProblem(fields: Iterable<string>): string | null {
  for (const f of fields) if (PLATFORM_FIELDS.has(f)) return `Field "${f}" is set by the platform and cannot be written`;
  return null;
}
