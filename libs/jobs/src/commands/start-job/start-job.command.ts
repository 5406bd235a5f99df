import { z } from 'zod';
import { Actor } from '@crawlhub/contracts';
import { checked, clientFields, stringList } from '../shared/command-input';

const START_JOB = z.object({
  /** Claim only jobs needing at most this many units (the claimer's free capacity); null: any. */
  maxUnits: z.unknown().optional().transform((value, ctx): number | null => {
    if (value === undefined) return null;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return value;
    ctx.addIssue({ code: 'custom', message: '"max_units" must be a positive integer' });
    return z.NEVER;
  }),
  /** Claim only jobs of these spiders (empty: any). */
  spiders: stringList('spiders'),
  /** Fields saved in the claimed job's metadata: never the platform's. */
  fields: clientFields.default({}),
  by: z.string(),
});

export type StartJobInput = Partial<z.input<typeof START_JOB>> & { by: string };

/**
 * Claim the project's next pending job (highest priority, then first pushed) and start
 * it: jobq startjob, and crawlhub's runners. `requestId` names the claim (absent: JobsRequests
 * gives it one): a claimer whose wait ended with ProjectionLagError reads the claim's outcome
 * later (JobsView.outcome) under the id it chose, as the runner does.
 */
export class StartJobCommand {
  readonly claim: z.output<typeof START_JOB>;

  constructor(readonly project: number, input: StartJobInput, readonly actor: Actor, readonly requestId?: string) {
    this.claim = checked(START_JOB, input);
  }
}
