import { Actor } from '@crawlhub/contracts';
import { checked, jobKeyOf } from '../shared/command-input';

/** Purge a deleted job: it leaves every list, summary and count for good; its number is never given again. */
export class PurgeJobCommand {
  readonly key: string;

  constructor(readonly project: number, key: string, readonly by: string, readonly actor: Actor) {
    this.key = checked(jobKeyOf(project), key);
  }
}
