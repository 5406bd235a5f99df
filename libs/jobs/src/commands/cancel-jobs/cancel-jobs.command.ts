import { z } from 'zod';
import { Actor } from '@crawlhub/contracts';
import { checked, jobKeyOf } from '../shared/command-input';

/** Cancel jobs of the project: a pending job finishes at once (cancelled), a running one gets a stop request. */
export class CancelJobsCommand {
  readonly keys: string[];

  constructor(readonly project: number, keys: unknown[], readonly by: string, readonly actor: Actor) {
    this.keys = checked(z.array(jobKeyOf(project)), keys);
  }
}
