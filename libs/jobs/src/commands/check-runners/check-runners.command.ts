import { z } from 'zod';
import { Actor } from '@crawlhub/contracts';
import { checked } from '../shared/command-input';

/**
 * Check the runners of the project's running jobs (the dash role's lost-runner watch): the
 * decider finishes as failed the jobs of a runner silent for `lostMs` at the check's time.
 */
export class CheckRunnersCommand {
  readonly lostMs: number;

  constructor(readonly project: number, lostMs: number, readonly actor: Actor) {
    this.lostMs = checked(z.number().int().positive({ message: 'lostMs must be a positive integer (ms)' }), lostMs);
  }
}
