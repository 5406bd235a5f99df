import { z } from 'zod';
import { Actor, JobPushRequest } from '@crawlhub/contracts';
import { clientRequestId } from '../../domain/decide-jobs';
import { checked, clientFields, integerIn, jobState, objectField, spiderName, stringList } from '../shared/command-input';

/** A push, checked field by field in this order (the first problem is the refusal). */
const PUSH_JOB = z.object({
  spider: z.unknown().optional().transform((value, ctx): unknown => {
    if (value !== undefined) return value;
    ctx.addIssue({ code: 'custom', message: 'push needs a "spider" name' });
    return z.NEVER;
  }).pipe(spiderName),
  // Any state, deleted included: the official client's own tests push jobs straight into it.
  state: jobState('pending'),
  tags: stringList('tags'),
  /** Extra metadata fields (jobq push's extra fields, run.json's `meta`): never the platform's. */
  meta: clientFields.default({}),
  spiderArgs: objectField('"spider_args" must be an object')
    .optional()
    .transform((args) => Object.fromEntries(Object.entries(args ?? {}).map(([k, v]) => [k, String(v)]))),
  jobSettings: objectField('"job_settings" must be an object').nullish().transform((v) => v ?? null),
  priority: integerIn('priority', 2, 0, 4),
  units: integerIn('units', 1, 1, 6),
  /** jobq `unique`: refused while an active job has the same value. */
  unique: z.unknown().optional().transform((v) => (v === undefined || v === null ? null : String(v))),
  /** run.json: refused ("already scheduled") while the spider has an active job with the same arguments. */
  refuseDuplicateArgs: z.boolean().default(false),
  spiderType: z.unknown().optional().transform((v) => (typeof v === 'string' ? v : 'manual')),
  by: z.string(),
  /** A periodic run: at most one job per schedule and slot (ms), whoever asks. */
  fire: z.object({ schedule: z.string(), slot: z.number().int().nonnegative() }).nullable().default(null),
});

/** What a push says; absent fields take their defaults (priority 2, 1 unit, pending, no tags...). */
export type PushJobInput = Partial<z.input<typeof PUSH_JOB>> & { by: string };

/**
 * Push a job: jobq push, run.json (through RunJobCommand) and the periodic scheduler's fires.
 * With the client's Idempotency-Key, the push is named by it (`requestId`): sent again, it
 * answers what the first one did.
 */
export class PushJobCommand {
  readonly request: JobPushRequest;
  readonly requestId: string | undefined;

  constructor(readonly project: number, input: PushJobInput, readonly actor: Actor, idempotencyKey: string | null = null) {
    this.request = { op: 'push', ...checked(PUSH_JOB, input) };
    this.requestId = idempotencyKey === null ? undefined : clientRequestId(project, actor, idempotencyKey);
  }
}
