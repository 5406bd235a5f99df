import { z } from 'zod';
import { Actor, JobUpdate } from '@crawlhub/contracts';
import { checked, clientFields, jobKeyProblem, jobState } from '../shared/command-input';

const SPIDER_KEY = /^\d{1,15}\/\d{1,15}$/;

/** Updates of the project's jobs, each checked in turn: its key, its state, its fields. */
const updatesOf = (project: number) =>
  z.array(
    z.object({
      /** A job key `p/s/j`, or a spider key `p/s` for every non-deleted job of the spider. */
      key: z.unknown().optional().transform((key, ctx): string => {
        if (typeof key !== 'string' || (SPIDER_KEY.test(key) && Number(key.split('/')[0]) !== project)) {
          ctx.addIssue({ code: 'custom', message: `Invalid key: ${JSON.stringify(key)}` });
          return z.NEVER;
        }
        const problem = SPIDER_KEY.test(key) ? null : jobKeyProblem(key, project);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
        return key;
      }),
      /** The state to move to; absent: the state stays. */
      state: jobState(null),
      /** Metadata fields to write: never the platform's. */
      fields: clientFields.default({}),
    }),
  );

/** An update as a client sends it: `key`, and optionally `state` and `fields`. */
export type JobUpdateInput = { key: unknown; state?: unknown; fields?: Record<string, unknown> };

/**
 * Change jobs' states and metadata fields (jobq update, dash jobs/delete.json, a runner
 * finishing its job). The decider refuses a state change its table does not allow.
 */
export class UpdateJobsCommand {
  readonly updates: JobUpdate[];

  constructor(readonly project: number, updates: JobUpdateInput[], readonly by: string, readonly actor: Actor) {
    this.updates = checked(updatesOf(project), updates);
  }
}
