import { Actor } from '@crawlhub/contracts';
import { ApiError } from '@crawlhub/http';
import { PushJobCommand, PushJobInput } from '../push-job/push-job.command';

/** What run.json records in the job's metadata besides the client's `meta` (after the deployed version). */
export interface RunJobExtras {
  environment: Record<string, unknown> | null;
  cmdArgs: string | null;
  /** The dash API's URL as the scheduling client reached it (clients compare it with their endpoint). */
  apiUrl: string;
}

/**
 * Schedule a job as dash run.json does: a push that is refused while the spider has an
 * active job with the same arguments, never straight into `deleted`, and that records the
 * deployed version the job will run (RunJobHandler).
 */
export class RunJobCommand {
  readonly push: PushJobCommand;

  constructor(
    project: number,
    input: Omit<PushJobInput, 'refuseDuplicateArgs' | 'fire' | 'unique'>,
    readonly extras: RunJobExtras,
    actor: Actor,
    idempotencyKey: string | null = null,
  ) {
    this.push = new PushJobCommand(project, { ...input, refuseDuplicateArgs: true }, actor, idempotencyKey);
    if (this.push.request.state === 'deleted') throw new ApiError(400, 'a job cannot be scheduled as deleted');
  }
}
